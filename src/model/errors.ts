import { Schema } from "effect";
import { LayerName } from "./layer-name.js";

/** A layer or the service failed for a reason other than a timeout. */
export class VerificationError extends Schema.TaggedError<VerificationError>()("VerificationError", {
  message: Schema.String,
  layer: Schema.optional(LayerName),
  cause: Schema.optional(Schema.Unknown),
}) {}

export class VerificationTimeoutError extends Schema.TaggedError<VerificationTimeoutError>()(
  "VerificationTimeoutError",
  {
    message: Schema.String,
    layer: Schema.optional(LayerName),
    timeoutMs: Schema.Number,
  },
) {}

export class InsufficientSourcesError extends Schema.TaggedError<InsufficientSourcesError>()(
  "InsufficientSourcesError",
  {
    message: Schema.String,
    required: Schema.Number,
    available: Schema.Number,
  },
) {}

export class CalibrationError extends Schema.TaggedError<CalibrationError>()("CalibrationError", {
  message: Schema.String,
  rawScore: Schema.Number,
}) {}

export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  message: Schema.String,
  key: Schema.optional(Schema.String),
}) {}

/** Input that cannot be verified as given: too large, malformed, unreadable. */
export class InputError extends Schema.TaggedError<InputError>()("InputError", {
  message: Schema.String,
  code: Schema.String,
}) {}
