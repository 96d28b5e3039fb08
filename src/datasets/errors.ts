import { Schema } from "effect";

/**
 * Why a dataset could not be fetched or read. `code` says what went wrong so callers (and tests) can tell a
 * checksum mismatch from a 404 or an outage; the message is written for the person running the command.
 */
export class DatasetError extends Schema.TaggedError<DatasetError>()("DatasetError", {
  message: Schema.String,
  code: Schema.Literal(
    "unknown-dataset",
    "unpinned",
    "checksum-mismatch",
    "http-status",
    "network",
    "timeout",
    "interrupted",
    "too-large",
    "insecure-url",
    "conversion",
    "not-fetched",
  ),
}) {}
