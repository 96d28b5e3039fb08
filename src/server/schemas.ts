import { Schema } from "effect";
import { MemoryType } from "../memory/model.js";

/** Request bodies of the API that are not already public Schemas. The OpenAPI document is generated from these. */
const Text = (maxLength: number) => Schema.String.pipe(Schema.maxLength(maxLength));

export const CheckRequest = Schema.Struct({
  text: Text(100_000),
  sources: Schema.optional(Schema.Array(Text(1_000_000)).pipe(Schema.maxItems(100))),
  context: Schema.optional(Text(1_000_000)),
  question: Schema.optional(Text(10_000)),
});
export type CheckRequest = typeof CheckRequest.Type;

export const CalculateRequest = Schema.Struct({ expression: Text(10_000) });

export const NumbersValidateRequest = Schema.Struct({
  text: Text(100_000),
  sources: Schema.Array(Text(1_000_000)).pipe(Schema.maxItems(100)),
  question: Schema.optional(Text(10_000)),
});

export const CitationsVerifyRequest = Schema.Struct({
  text: Text(100_000),
  sources: Schema.optional(Schema.Array(Text(1_000_000)).pipe(Schema.maxItems(100))),
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
