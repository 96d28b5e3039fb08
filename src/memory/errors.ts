import { Schema } from "effect";

/** The memory store or review queue could not be reached or failed: an outage, never a verdict. */
export class MemoryStoreError extends Schema.TaggedError<MemoryStoreError>()("MemoryStoreError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Unknown),
}) {}

/** The duplicate check could not run (index or provider failure). The gate routes the claim to review. */
export class DedupError extends Schema.TaggedError<DedupError>()("DedupError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Unknown),
}) {}

/** A citation could not be checked (network, git, file system). Never counts as verified. */
export class CitationCheckError extends Schema.TaggedError<CitationCheckError>()("CitationCheckError", {
  message: Schema.String,
  citation: Schema.String,
  cause: Schema.optional(Schema.Unknown),
}) {}

/** A review-queue limit was reached: per user or in total. */
export class ReviewQueueFullError extends Schema.TaggedError<ReviewQueueFullError>()("ReviewQueueFullError", {
  message: Schema.String,
  scope: Schema.Literal("user", "total"),
  limit: Schema.Number,
}) {}

/**
 * No pending item with this id for this user. Returned both when the item does not exist and when it belongs
 * to someone else, so that ids of other users' items cannot be probed.
 */
export class ReviewItemNotFoundError extends Schema.TaggedError<ReviewItemNotFoundError>()(
  "ReviewItemNotFoundError",
  { message: Schema.String, queueId: Schema.String },
) {}

/** The memory store holds the most memories a user may have. */
export class MemoryStoreFullError extends Schema.TaggedError<MemoryStoreFullError>()("MemoryStoreFullError", {
  message: Schema.String,
  limit: Schema.Number,
}) {}
