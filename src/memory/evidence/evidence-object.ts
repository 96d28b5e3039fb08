import { Schema } from "effect";

export const Confidence = Schema.Literal("high", "medium", "low");
export type Confidence = typeof Confidence.Type;

/** Provenance carried by every memory: what was claimed, when, how sure we are, and where it came from. */
export const EvidenceObject = Schema.Struct({
  claim: Schema.String,
  captureTime: Schema.Date,
  confidence: Confidence,
  /** The grounding artifact: `ADR-003`, `commit:a1b2c3d`, a URL, `issue:#12`, or the trusted source. */
  sourceId: Schema.optional(Schema.String),
  /** After this instant the memory is expired: it leaves search results and `expire()` removes it. */
  validityHorizon: Schema.optional(Schema.Date),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
});
export type EvidenceObject = typeof EvidenceObject.Type;

/** Whether the evidence has passed its validity horizon at `now`. */
export const isExpired = (evidence: EvidenceObject, now: Date): boolean =>
  evidence.validityHorizon !== undefined && evidence.validityHorizon.getTime() <= now.getTime();
