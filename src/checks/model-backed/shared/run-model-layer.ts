import { Duration, Effect } from "effect";
import { makeCostMeter, withMeter } from "../../../llm/budget.js";
import type { LLMError } from "../../../llm/errors.js";
import { VerificationError, VerificationTimeoutError } from "../../../model/errors.js";
import type { LayerInput } from "../../../model/layer.js";
import type { ModelLayerName } from "../../../model/layer-name.js";
import type { LayerResult } from "../../../model/layer-result.js";
import { claimsToJudge } from "./layer-claims.js";

/** What a layer's body computes; the runner adds the name, latency and cost. */
export type LayerVerdict = Omit<LayerResult, "layer" | "latencyMs" | "costIncurred">;

const describeFailure = (error: LLMError): string => {
  switch (error._tag) {
    case "ModelCallError":
      return `model call failed (${error.reason}${error.status === undefined ? "" : ` ${error.status}`}): ${error.message}`;
    case "ModelTimeoutError":
      return `model call timed out after ${error.timeoutMs} ms`;
    case "ModelOutputError":
      return `model answer unusable: ${error.issue.slice(0, 300)}`;
    case "ModelBudgetExceededError":
      return `skipped: ${error.message}`;
  }
};

/** Whether a layer error means "not run because of the request's budget" (report as skipped). */
export const isBudgetSkip = (error: VerificationError | VerificationTimeoutError): boolean =>
  error._tag === "VerificationError" &&
  typeof error.cause === "object" &&
  error.cause !== null &&
  (error.cause as { _tag?: unknown })._tag === "ModelBudgetExceededError";

/**
 * Runs a model layer's body: measures its latency and model spend (charged against `input.maxCost` when
 * given), applies the layer timeout, and turns every model failure into a typed error carrying the
 * layer. A layer whose model could not answer never returns a result, so it can never pass.
 */
export const runModelLayer = <R>(
  layer: ModelLayerName,
  timeoutMs: number,
  input: LayerInput,
  body: Effect.Effect<LayerVerdict, LLMError | VerificationError, R>,
): Effect.Effect<LayerResult, VerificationError | VerificationTimeoutError, R> =>
  Effect.gen(function* () {
    if (claimsToJudge(input).claims.length === 0) {
      return yield* Effect.fail(
        new VerificationError({ message: `${layer}: the text has no claim to check`, layer }),
      );
    }
    const meter = makeCostMeter(input.maxCost === undefined ? {} : { maxCost: input.maxCost });
    const started = yield* Effect.clockWith((clock) => clock.currentTimeMillis);
    const verdict = yield* body.pipe(
      withMeter(meter),
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () =>
          new VerificationTimeoutError({
            message: `${layer} took longer than ${timeoutMs} ms`,
            layer,
            timeoutMs,
          }),
      }),
      Effect.mapError((error) => {
        if (error._tag === "VerificationError" || error._tag === "VerificationTimeoutError") return error;
        if (error._tag === "ModelTimeoutError") {
          return new VerificationTimeoutError({
            message: `${layer}: ${describeFailure(error)}`,
            layer,
            timeoutMs: error.timeoutMs,
          });
        }
        return new VerificationError({ message: `${layer}: ${describeFailure(error)}`, layer, cause: error });
      }),
    );
    const finished = yield* Effect.clockWith((clock) => clock.currentTimeMillis);
    return {
      ...verdict,
      layer,
      latencyMs: Math.max(0, finished - started),
      costIncurred: meter.spentUsd,
      details: { ...verdict.details, modelCalls: meter.calls, tokens: meter.tokens },
    };
  });
