import { JSONSchema, type Schema } from "effect";
import { cleanJsonSchema } from "../model/clean-json-schema.js";
import { packageVersion } from "../model/package-version.js";
import { VerificationRequest } from "../model/request.js";
import { VerificationResult } from "../model/result.js";
import { examples } from "./openapi-examples.js";
import {
  CalculateRequest,
  CalibrateRequest,
  CalibrationOutcomesRequest,
  CalibrationRefitRequest,
  CheckRequest,
  CitationsVerifyRequest,
  MemoryIngestRequest,
  MemorySearchRequest,
  NumbersValidateRequest,
  ProblemDetails,
  RejectRequest,
  SourceUploadRequest,
  VerifyRequest,
} from "./schemas.js";

const componentPath = "#/components/schemas/";

/**
 * Every body schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses). Schemas that Effect names (an identifier
 * annotation, or a refinement such as `Int`) become shared components, referenced where they are used, so
 * every `$ref` of the document points into `components.schemas`.
 */
const componentSchemas = (): Record<string, object> => {
  const bodies: Record<string, Schema.Schema.Any> = {
    VerificationRequest,
    VerificationResult,
    CheckRequest,
    CalculateRequest,
    NumbersValidateRequest,
    CitationsVerifyRequest,
    CalibrateRequest,
    CalibrationOutcomesRequest,
    CalibrationRefitRequest,
    SourceUploadRequest,
    VerifyRequest,
    MemoryIngestRequest,
    MemorySearchRequest,
    RejectRequest,
    ProblemDetails,
  };
  const shared: Record<string, object> = {};
  const schemas: Record<string, object> = {};
  for (const [name, schema] of Object.entries(bodies)) {
    schemas[name] = JSONSchema.fromAST(schema.ast, {
      definitions: shared as Record<string, JSONSchema.JsonSchema7>,
      definitionPath: componentPath,
      target: "openApi3.1",
      topLevelReferenceStrategy: "skip",
    });
  }
  return Object.fromEntries(
    Object.entries({ ...shared, ...schemas }).map(([name, schema]) => [name, cleanJsonSchema(schema)]),
  );
};

const ref = (name: string) => ({ $ref: `${componentPath}${name}` });

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ref("ProblemDetails") } },
});

const errors = {
  "400": problem("malformed JSON, a body that does not match the schema, or an invalid query parameter"),
  "401": problem("missing, unknown or revoked API key"),
  "413": problem("body larger than the server accepts"),
  "502": problem("a verification layer failed or is not configured on this server"),
  "429": problem(
    "rate limit of the API key reached (rate-limited), or the key's requests in flight or their bodies' bytes at its share (key-busy)",
  ),
  "503": problem(
    "a store or layer is unavailable, the request timed out, or the verifiers or the request bodies held at once are at their limits (verifier-busy, server-busy)",
  ),
};

const jsonBody = (schema: string, example: unknown) => ({
  required: true,
  content: { "application/json": { schema: ref(schema), example } },
});

/** A JSON answer: its schema when the body has one, and an example either way. */
const ok = (description: string, example: unknown, schema?: string) => ({
  description,
  content: { "application/json": { ...(schema === undefined ? {} : { schema: ref(schema) }), example } },
});

const layerClaimsParameter = {
  name: "layerClaims",
  in: "query",
  required: false,
  description:
    "true to keep each layer's own claim findings in layersRun[].claims; by default they are left out, " +
    "since the top-level claims already merge them (verdicts, issues and evidence of every layer)",
  schema: { type: "boolean", default: false },
};

const queueIdParameter = {
  name: "queueId",
  in: "path",
  required: true,
  description: "the id of a review item, from /v1/review/pending or a 202 ingestion answer",
  schema: { type: "string" },
};

const limitParameter = {
  name: "limit",
  in: "query",
  required: false,
  description: "how many items to list at most",
  schema: { type: "integer", minimum: 1, maximum: 100, default: 50 },
};

/**
 * The OpenAPI 3.1 document served at `/openapi.json`, generated from the same Schemas that decode the bodies.
 * Every operation has an `operationId` (what client generators name their methods after) and examples.
 */
export const buildOpenApiDocument = (version: string = packageVersion()): object => ({
  openapi: "3.1.0",
  info: {
    title: "Veracity",
    version,
    description: "Hallucination checks, memory ingestion and review as a service.",
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
  },
  // Relative to where the document is served, so it stays right behind a gateway or under a path prefix.
  servers: [{ url: "/", description: "the server that serves this document" }],
  security: [{ apiKey: [] }],
  paths: {
    "/v1/verify": {
      post: {
        operationId: "verify",
        summary: "Verify an answer with every configured layer",
        parameters: [layerClaimsParameter],
        requestBody: jsonBody("VerifyRequest", examples.verifyRequest),
        responses: {
          "200": ok("the verification", examples.verificationResult, "VerificationResult"),
          ...errors,
        },
      },
    },
    "/v1/check": {
      post: {
        operationId: "check",
        summary: "Check an answer against its sources with the offline layers",
        parameters: [layerClaimsParameter],
        requestBody: jsonBody("CheckRequest", examples.checkRequest),
        responses: {
          "200": ok("the verification", examples.verificationResult, "VerificationResult"),
          ...errors,
        },
      },
    },
    "/v1/calculate": {
      post: {
        operationId: "calculate",
        summary: "Evaluate an arithmetic expression exactly",
        requestBody: jsonBody("CalculateRequest", examples.calculateRequest),
        responses: { "200": ok("expression, result (string) and value", examples.calculation), ...errors },
      },
    },
    "/v1/numbers/validate": {
      post: {
        operationId: "validateNumbers",
        summary: "Trace every number of an answer to its sources",
        requestBody: jsonBody("NumbersValidateRequest", examples.numbersRequest),
        responses: { "200": ok("per-number checks", examples.numbersResult), ...errors },
      },
    },
    "/v1/citations/verify": {
      post: {
        operationId: "verifyCitations",
        summary: "Check the citations of a text (needs an evidence store)",
        requestBody: jsonBody("CitationsVerifyRequest", examples.citationsRequest),
        responses: { "200": ok("the citations layer result", examples.citationsResult), ...errors },
      },
    },
    "/v1/calibrate": {
      post: {
        operationId: "calibrate",
        summary: "Calibration error (ECE, Brier) of stated confidences",
        requestBody: jsonBody("CalibrateRequest", examples.calibrateRequest),
        responses: { "200": ok("calibration metrics", examples.calibration), ...errors },
      },
    },
    "/v1/sources": {
      post: {
        operationId: "storeSource",
        summary:
          "Keep a source for the caller's later requests, which name it by hash in `sourceRefs` instead of sending it again",
        requestBody: jsonBody("SourceUploadRequest", examples.sourceUpload),
        responses: { "201": ok("stored: its hash and size", examples.sourceStored), ...errors },
      },
    },
    "/v1/sources/{hash}": {
      get: {
        operationId: "getSource",
        summary: "Whether the caller has a source with this hash (its size)",
        parameters: [
          {
            name: "hash",
            in: "path",
            required: true,
            description: "SHA-256 of the source's UTF-8 text, lower-case hex",
            schema: { type: "string", pattern: "^[0-9a-f]{64}$" },
          },
        ],
        responses: {
          "200": ok("stored", examples.sourceStored),
          "404": problem("the caller has no source with this hash"),
          ...errors,
        },
      },
    },
    "/v1/calibration": {
      get: {
        operationId: "calibrationStatus",
        summary: "The Platt models in use, the refit schedule and the last refit from reviewed outcomes",
        responses: { "200": ok("status", examples.calibrationStatus), ...errors },
      },
    },
    "/v1/calibration/outcomes": {
      post: {
        operationId: "recordCalibrationOutcomes",
        summary:
          "Record reviewed outcomes (a model-backed layer's raw score and whether the text was supported) for the periodic refit; the reviewer is the key's user",
        requestBody: jsonBody("CalibrationOutcomesRequest", examples.calibrationOutcomesRequest),
        responses: { "201": ok("recorded", examples.calibrationOutcomesRecorded), ...errors },
      },
    },
    "/v1/calibration/refit": {
      post: {
        operationId: "refitCalibration",
        summary:
          "Refit each model-backed layer's Platt model from the reviewed outcomes now, apply it and record it in the audit trail",
        requestBody: jsonBody("CalibrationRefitRequest", examples.calibrationRefitRequest),
        responses: { "200": ok("the refit", examples.calibrationRefit), ...errors },
      },
    },
    "/v1/memory/ingest": {
      post: {
        operationId: "ingestMemory",
        summary: "Validate a claim and store it (201), queue it for its owner (202) or refuse it (422)",
        requestBody: jsonBody("MemoryIngestRequest", examples.ingestRequest),
        responses: {
          "201": ok("stored", examples.ingestStored),
          "202": ok("queued for review", examples.ingestQueued),
          "403": problem("an agent key named a trusted source"),
          "422": ok("blocked", examples.ingestBlocked),
          ...errors,
        },
      },
    },
    "/v1/memory/search": {
      post: {
        operationId: "searchMemory",
        summary: "Search the caller's memories",
        requestBody: jsonBody("MemorySearchRequest", examples.searchRequest),
        responses: { "200": ok("hits, best first", examples.searchResult), ...errors },
      },
    },
    "/v1/review/pending": {
      get: {
        operationId: "listPendingReviews",
        summary: "The caller's pending review items, oldest first",
        parameters: [limitParameter],
        responses: { "200": ok("items", examples.pendingItems), ...errors },
      },
    },
    "/v1/review/{queueId}": {
      get: {
        operationId: "getPendingReview",
        summary: "One pending item of the caller",
        parameters: [queueIdParameter],
        responses: {
          "200": ok("the item", examples.pendingItem),
          "404": problem("no such item for this user"),
          ...errors,
        },
      },
    },
    "/v1/review/{queueId}/approve": {
      post: {
        operationId: "approveReview",
        summary: "Approve one of the caller's items (stores the memory once)",
        parameters: [queueIdParameter],
        responses: {
          "200": ok("approved", examples.approved),
          "404": problem("no such item for this user, or already decided"),
          ...errors,
        },
      },
    },
    "/v1/review/{queueId}/reject": {
      post: {
        operationId: "rejectReview",
        summary: "Reject one of the caller's items with a reason",
        parameters: [queueIdParameter],
        requestBody: jsonBody("RejectRequest", examples.rejectRequest),
        responses: {
          "200": ok("rejected", { status: "rejected" }),
          "404": problem("no such item for this user, or already decided"),
          ...errors,
        },
      },
    },
    "/v1/audit": {
      get: {
        operationId: "listAuditEntries",
        summary: "The caller's review trail (the newest 200 entries)",
        responses: { "200": ok("entries", examples.auditEntries), ...errors },
      },
    },
    "/v1/audit/verify": {
      get: {
        operationId: "verifyAuditLog",
        summary:
          "Re-hash the tamper-evident audit log (verifications, ingestion decisions, review actions) and report every edited, missing or reordered entry",
        responses: {
          "200": ok(
            "intact, checked, problems and the last entry (sequence and hash) to keep as an anchor",
            examples.auditVerification,
          ),
          ...errors,
        },
      },
    },
    "/healthz": {
      get: {
        operationId: "liveness",
        summary: "Liveness",
        security: [],
        responses: { "200": ok("alive", { status: "ok" }) },
      },
    },
    "/readyz": {
      get: {
        operationId: "readiness",
        summary: "Readiness",
        security: [],
        responses: {
          "200": ok("ready", { status: "ready" }),
          "503": ok("not ready, or shutting down", { status: "shutting-down" }),
        },
      },
    },
    "/metrics": {
      get: {
        operationId: "metrics",
        summary: "Prometheus metrics",
        security: [],
        responses: {
          "200": {
            description: "text exposition",
            content: { "text/plain": { schema: { type: "string" }, example: examples.metricsText } },
          },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      apiKey: { type: "http", scheme: "bearer", description: "a key from `veracity serve keys create`" },
    },
    schemas: componentSchemas(),
  },
});
