import { Schema } from "effect";
import { MemoryType } from "../memory/model.js";
import { ModelLayerName } from "../model/layer-name.js";
import { inputLimits } from "../model/limits.js";
import { VerificationRequest } from "../model/request.js";

/** Request bodies of the API that are not already public Schemas. The OpenAPI document is generated from these. */
const Text = (maxLength: number) => Schema.String.pipe(Schema.maxLength(maxLength));

const AnswerText = Text(inputLimits.textChars);
const Sources = Schema.Array(Text(inputLimits.sourceChars)).pipe(Schema.maxItems(inputLimits.sources));
const Question = Text(inputLimits.questionChars);

/** A source stored with `POST /v1/sources`, named by the SHA-256 of its UTF-8 text (lower-case hex). */
export const SourceHash = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)).annotations({
  description: "SHA-256 of a source's UTF-8 text, lower-case hex, as POST /v1/sources answered it",
});

/** Sources by hash, added to `sources`: a large document uploaded once is named in every later request. */
const SourceRefs = Schema.Array(SourceHash).pipe(Schema.maxItems(inputLimits.sources));

/** `POST /v1/sources`: one source to keep for the caller's later requests. */
export const SourceUploadRequest = Schema.Struct({ text: Text(inputLimits.sourceChars) });

export const CheckRequest = Schema.Struct({
  text: AnswerText,
  sources: Schema.optional(Sources),
  sourceRefs: Schema.optional(SourceRefs),
  context: Schema.optional(Text(inputLimits.contextChars)),
  question: Schema.optional(Question),
});
export type CheckRequest = typeof CheckRequest.Type;

/** `/v1/verify`: the library's VerificationRequest within the input limits every door shares (limits.ts). */
export const VerifyRequest = Schema.Struct({
  ...VerificationRequest.fields,
  ...CheckRequest.fields,
  layers: Schema.optional(VerificationRequest.fields.layers.from.pipe(Schema.maxItems(20))),
});

export const CalculateRequest = Schema.Struct({ expression: Text(10_000) });

export const NumbersValidateRequest = Schema.Struct({
  text: AnswerText,
  sources: Sources,
  question: Schema.optional(Question),
});

export const CitationsVerifyRequest = Schema.Struct({
  text: AnswerText,
  sources: Schema.optional(Sources),
});

/** A memory to ingest. The owner is the authenticated user: there is no userId field. */
export const MemoryIngestRequest = Schema.Struct({
  content: Text(10_000),
  memoryType: MemoryType,
  source: Text(200),
  validUntil: Schema.optional(Schema.String.pipe(Schema.maxLength(40))),
  metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
});

export const MemorySearchRequest = Schema.Struct({
  query: Text(1_000),
  limit: Schema.optional(Schema.Int.pipe(Schema.between(1, 100))),
});

export const RejectRequest = Schema.Struct({
  reason: Text(2_000).pipe(Schema.filter((reason) => reason.trim().length > 0 || "a reason is required")),
});

/**
 * Reviewed outcomes for periodic recalibration: a model-backed layer's raw score on a verified text
 * (`details.rawScore` in the verification's `layersRun`) and whether a person found that text supported.
 */
export const CalibrationOutcomesRequest = Schema.Struct({
  outcomes: Schema.Array(
    Schema.Struct({
      layer: ModelLayerName,
      rawScore: Schema.Number.pipe(Schema.between(0, 1)),
      supported: Schema.Boolean,
      verificationId: Schema.optional(Text(128)),
    }),
  ).pipe(Schema.minItems(1), Schema.maxItems(1_000)),
});

/** A refit asked for now; the reason, when given, is kept in the refit's audit entry. */
export const CalibrationRefitRequest = Schema.Struct({ reason: Schema.optional(Text(500)) });

/** Raw layer scores with the truth, for fitting a Platt model. */
export const CalibrateRequest = Schema.Struct({
  samples: Schema.Array(
    Schema.Struct({ score: Schema.Number.pipe(Schema.between(0, 1)), supported: Schema.Boolean }),
  ).pipe(Schema.maxItems(100_000)),
});

export const ProblemDetails = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Number,
  code: Schema.String,
  detail: Schema.String,
  instance: Schema.String,
});
