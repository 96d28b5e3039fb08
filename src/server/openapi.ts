import { JSONSchema, type Schema } from "effect";
import { VerificationRequest } from "../model/request.js";
import { VerificationResult } from "../model/result.js";
import {
  CalculateRequest,
  CalibrateRequest,
  CheckRequest,
  CitationsVerifyRequest,
  MemoryIngestRequest,
  MemorySearchRequest,
  NumbersValidateRequest,
  ProblemDetails,
  RejectRequest,
} from "./schemas.js";

/** A schema as JSON Schema, without the draft marker OpenAPI 3.1 does not need. */
const jsonSchemaOf = <A, I>(schema: Schema.Schema<A, I>): object => {
  const { $schema: _, ...rest } = JSONSchema.make(schema, { target: "openApi3.1" }) as unknown as Record<
    string,
    unknown
  >;
  return rest;
};

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/ProblemDetails" } } },
});

const errors = {
  "400": problem("malformed JSON or a body that does not match the schema"),
  "401": problem("missing, unknown or revoked API key"),
  "413": problem("body larger than the server accepts"),
  "429": problem("rate limit of the API key reached"),
  "503": problem("a store or layer is unavailable, or the request timed out"),
};

const jsonBody = (name: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
});

const ok = (description: string, schema?: string) => ({
  description,
  ...(schema
    ? { content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } } }
    : {}),
});

const post = (summary: string, body: string, response: ReturnType<typeof ok>) => ({
  post: { summary, requestBody: jsonBody(body), responses: { "200": response, ...errors } },
});

/** `?layerClaims=true`: keep each layer's own claim findings in `layersRun` (they are merged into `claims`). */
const withLayerClaimsParameter = <T extends { post: object }>(operation: T): T => ({
  ...operation,
  post: {
    ...operation.post,
    parameters: [
      {
        name: "layerClaims",
        in: "query",
        required: false,
        description:
          "true to keep each layer's own claim findings in layersRun[].claims; by default they are left out, " +
          "since the top-level claims already merge them (verdicts, issues and evidence of every layer)",
        schema: { type: "boolean", default: false },
      },
    ],
  },
});

const queueIdParameter = [{ name: "queueId", in: "path", required: true, schema: { type: "string" } }];

/** The OpenAPI 3.1 document served at `/openapi.json`, generated from the same Schemas that decode the bodies. */
export const buildOpenApiDocument = (version: string): object => ({
  openapi: "3.1.0",
  info: {
    title: "Veracity",
    version,
    description: "Hallucination checks, memory ingestion and review as a service.",
  },
  security: [{ apiKey: [] }],
  paths: {
    "/v1/verify": withLayerClaimsParameter(
      post(
        "Verify an answer with every configured layer",
        "VerificationRequest",
        ok("the verification", "VerificationResult"),
      ),
    ),
    "/v1/check": withLayerClaimsParameter(
      post(
        "Check an answer against its sources with the offline layers",
        "CheckRequest",
        ok("the verification", "VerificationResult"),
      ),
    ),
    "/v1/calculate": post(
      "Evaluate an arithmetic expression exactly",
      "CalculateRequest",
      ok("expression, result (string) and value"),
    ),
    "/v1/numbers/validate": post(
      "Trace every number of an answer to its sources",
      "NumbersValidateRequest",
      ok("per-number checks"),
    ),
    "/v1/citations/verify": post(
      "Check the citations of a text (needs an evidence store)",
      "CitationsVerifyRequest",
      ok("the citations layer result"),
    ),
    "/v1/calibrate": post(
      "Calibration error (ECE, Brier) of stated confidences",
      "CalibrateRequest",
      ok("calibration metrics"),
    ),
    "/v1/memory/ingest": {
      post: {
        summary: "Validate a claim and store it (201), queue it for its owner (202) or refuse it (422)",
        requestBody: jsonBody("MemoryIngestRequest"),
        responses: { "201": ok("stored"), "202": ok("queued for review"), "422": ok("blocked"), ...errors },
      },
    },
    "/v1/memory/search": post("Search the caller's memories", "MemorySearchRequest", ok("hits, best first")),
    "/v1/review/pending": {
      get: { summary: "The caller's pending review items", responses: { "200": ok("items"), ...errors } },
    },
    "/v1/review/{queueId}": {
      get: {
        summary: "One pending item of the caller",
        parameters: queueIdParameter,
        responses: { "200": ok("the item"), "404": problem("no such item for this user"), ...errors },
      },
    },
    "/v1/review/{queueId}/approve": {
      post: {
        summary: "Approve one of the caller's items (stores the memory once)",
        parameters: queueIdParameter,
        responses: {
          "200": ok("approved"),
          "404": problem("no such item for this user, or already decided"),
          ...errors,
        },
      },
    },
    "/v1/review/{queueId}/reject": {
      post: {
        summary: "Reject one of the caller's items with a reason",
        parameters: queueIdParameter,
        requestBody: jsonBody("RejectRequest"),
        responses: {
          "200": ok("rejected"),
          "404": problem("no such item for this user, or already decided"),
          ...errors,
        },
      },
    },
    "/v1/audit": {
      get: { summary: "The caller's audit trail", responses: { "200": ok("entries"), ...errors } },
    },
    "/v1/audit/verify": {
      get: {
        summary:
          "Re-hash the tamper-evident audit log (verifications, ingestion decisions, review actions) and report every edited, missing or reordered entry",
        responses: {
          "200": ok("intact, checked, problems and the last entry (sequence and hash) to keep as an anchor"),
          ...errors,
        },
      },
    },
    "/healthz": { get: { summary: "Liveness", security: [], responses: { "200": ok("alive") } } },
    "/readyz": {
      get: { summary: "Readiness", security: [], responses: { "200": ok("ready"), "503": ok("not ready") } },
    },
    "/metrics": {
      get: { summary: "Prometheus metrics", security: [], responses: { "200": ok("text exposition") } },
    },
  },
  components: {
    securitySchemes: {
      apiKey: { type: "http", scheme: "bearer", description: "a key from `veracity serve keys create`" },
    },
    schemas: {
      VerificationRequest: jsonSchemaOf(VerificationRequest),
      VerificationResult: jsonSchemaOf(VerificationResult),
      CheckRequest: jsonSchemaOf(CheckRequest),
      CalculateRequest: jsonSchemaOf(CalculateRequest),
      NumbersValidateRequest: jsonSchemaOf(NumbersValidateRequest),
      CitationsVerifyRequest: jsonSchemaOf(CitationsVerifyRequest),
      CalibrateRequest: jsonSchemaOf(CalibrateRequest),
      MemoryIngestRequest: jsonSchemaOf(MemoryIngestRequest),
      MemorySearchRequest: jsonSchemaOf(MemorySearchRequest),
      RejectRequest: jsonSchemaOf(RejectRequest),
      ProblemDetails: jsonSchemaOf(ProblemDetails),
    },
  },
});
