import { Schema } from "effect";
import { LayerName } from "./layer-name.js";

/** A layer or the service failed for a reason other than a timeout. */
export class VerificationError extends Schema.TaggedError<VerificationError>()("VerificationError", {
  message: Schema.String,
  layer: Schema.optional(LayerName),
  cause: Schema.optional(Schema.Unknown),
}) {}

/**
 * A layer, or a call to a worker-pool verifier, did not finish within its time limit (`timeoutMs`). A layer
 * that times out is reported as not completed, and the verification cannot pass.
 */
export class VerificationTimeoutError extends Schema.TaggedError<VerificationTimeoutError>()(
  "VerificationTimeoutError",
  {
    message: Schema.String,
    layer: Schema.optional(LayerName),
    timeoutMs: Schema.Number,
  },
) {}

/** A check needs more sources than the request gave: `required` of them, with `available` given. */
export class InsufficientSourcesError extends Schema.TaggedError<InsufficientSourcesError>()(
  "InsufficientSourcesError",
  {
    message: Schema.String,
    required: Schema.Number,
    available: Schema.Number,
  },
) {}

/** A raw score could not be calibrated because it is not in [0, 1]; `rawScore` is the value refused. */
export class CalibrationError extends Schema.TaggedError<CalibrationError>()("CalibrationError", {
  message: Schema.String,
  rawScore: Schema.Number,
}) {}

/**
 * A configuration value is missing or invalid (a settings file, a `VERACITY_*` variable, a model provider that
 * is not installed...); `key` names the setting at fault, when there is one.
 */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  message: Schema.String,
  key: Schema.optional(Schema.String),
}) {}

/** Input that cannot be verified as given: too large, malformed, unreadable. */
export class InputError extends Schema.TaggedError<InputError>()("InputError", {
  message: Schema.String,
  code: Schema.String,
}) {}
