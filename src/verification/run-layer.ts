import { Duration, Effect } from "effect";
import { VerificationError, VerificationTimeoutError } from "../model/errors.js";
import type { LayerInput, VerificationLayer } from "../model/layer.js";
import type { LayerResult } from "../model/layer-result.js";

/**
 * Runs one layer under a time limit; any failure, defect or timeout becomes a typed error naming the layer.
 * A synchronous layer is not raced against a timer (nothing could interrupt it); its defects are still caught.
 */
export const runWithLimit = (
  layer: VerificationLayer,
  input: LayerInput,
  timeoutMs: number,
): Effect.Effect<LayerResult, VerificationError | VerificationTimeoutError> => {
  const guarded = Effect.suspend(() => layer.run(input)).pipe(
    Effect.catchAllDefect((defect) =>
      Effect.fail(
        new VerificationError({
          message: `layer ${layer.name} crashed: ${defect instanceof Error ? defect.message : String(defect)}`,
          layer: layer.name,
        }),
      ),
    ),
  );
  if (layer.synchronous) return guarded;
  return guarded.pipe(
    Effect.timeoutFail({
      duration: Duration.millis(Math.max(1, timeoutMs)),
      onTimeout: () =>
        new VerificationTimeoutError({
          message: `layer ${layer.name} did not finish within ${Math.round(timeoutMs)} ms`,
          layer: layer.name,
          timeoutMs,
        }),
    }),
  );
};
