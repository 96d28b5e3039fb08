import { Effect } from "effect";
import { VerificationError } from "../../../model/errors.js";
import { notReady, ready, type VerificationLayer } from "../../../model/layer.js";
import { defaultSourceCacheLimits, type TextCacheLimits } from "../../../text/text-cache.js";
import { findDecomposedTotals, withDecomposedTotals } from "../aggregate/decomposed-total.js";
import { makeSourcesCache } from "../derive/source-cache.js";
import type { RecordedCalculation } from "../tool/recorder.js";
import { type ValidateOptions, validateNumbers } from "../validate/validate-numbers.js";
import { claimFindings } from "./claim-findings.js";
import { tracedFigures } from "./traced-figures.js";

export interface NumbersLayerOptions extends ValidateOptions {
  /** Calculator results recorded while the answer was written (a list, or read at each run). */
  readonly calculations?: readonly RecordedCalculation[] | (() => readonly RecordedCalculation[]);
}

/**
 * The `numbers` evidence layer: every number of the text is traced to the evidence and the recorded
 * calculator outputs. Claims holding orphan numbers are unsupported; claims holding suspicious numbers, wrong
 * written calculations or totals built from partial data are contradicted. The layer passes only when every
 * number traces. `details.validation` holds the full `ValidationResult`. The layer keeps a small cache of
 * the evidence it has read (the last 16 evidence sets, and each source's figures on their own, up to
 * `sourceCache`), so many answers against one source, or against its documents in other combinations, are cheap.
 */
export const makeNumbersLayer = (
  overrides: NumbersLayerOptions = {},
  sourceCache: TextCacheLimits = defaultSourceCacheLimits,
): VerificationLayer => {
  // The layer's own cache, unless the caller brings a reader of its own (whose caching is the caller's).
  const sourcesCache =
    overrides.readSources === undefined ? makeSourcesCache({ sourceLimits: sourceCache }) : undefined;
  const options: NumbersLayerOptions = {
    ...(sourcesCache === undefined ? {} : { readSources: sourcesCache }),
    ...overrides,
  };
  const calculationsNow = () =>
    typeof options.calculations === "function" ? options.calculations() : (options.calculations ?? []);
  return {
    name: "numbers",
    kind: "evidence",
    synchronous: true,
    readiness: (input) =>
      input.evidence.some((source) => source.text.trim().length > 0) || calculationsNow().length > 0
        ? ready
        : notReady("no evidence text and no recorded calculator outputs to trace numbers to"),
    ...(sourcesCache === undefined ? {} : { cacheStats: sourcesCache.stats }),
    run: (input) =>
      Effect.try({
        try: () => {
          const started = performance.now();
          const validation = validateNumbers(
            {
              text: input.text,
              evidence: input.evidence,
              calculations: calculationsNow(),
              claims: input.claims,
              ...(input.question ? { question: input.question } : {}),
            },
            options,
          );
          const decomposedTotals = findDecomposedTotals(input.question, input.text, validation);
          const claims = withDecomposedTotals(
            claimFindings(input.claims, validation),
            input.claims,
            decomposedTotals,
            validation,
          );
          const checked = validation.numbers.length;
          // Counted from the validation, not the claims: a number outside every claim still fails the layer.
          // With the evidence read in part, a number not traced is unverifiable, not flagged (see the claims).
          const untraced = (n: (typeof validation.numbers)[number]) =>
            n.status === "orphan" || n.status === "suspicious";
          const limitedOut = (n: (typeof validation.numbers)[number]) =>
            validation.sourceTruncated === true && n.reason !== "inline-calculation";
          const flagged = new Set([
            ...validation.numbers.filter((n) => untraced(n) && !limitedOut(n)).map((n) => n.span.start),
            ...validation.partialAggregations.map((p) => p.span.start),
            ...decomposedTotals.map((total) => total.span.start),
          ]).size;
          const untracedInPart = validation.numbers.filter((n) => untraced(n) && limitedOut(n)).length;
          const unverified = validation.skipped + untracedInPart;
          const limitReached = [
            ...(validation.sourceTruncated ? ["maxSourceNumbers"] : []),
            ...((validation.skippedByWork ?? 0) > 0 ? ["maxTraceWork"] : []),
            ...(validation.skipped > (validation.skippedByWork ?? 0) ? ["maxAnswerNumbers"] : []),
          ];
          return {
            layer: "numbers" as const,
            // Fail closed: a number left unjudged at a limit is no pass, though it is not called wrong.
            passed: flagged === 0 && unverified === 0,
            score:
              checked + validation.skipped === 0
                ? 1
                : (checked - flagged - untracedInPart) / (checked + validation.skipped),
            latencyMs: performance.now() - started,
            details: {
              numbersChecked: checked,
              numbersFlagged: flagged,
              numbersUnverified: unverified,
              ...(limitReached.length > 0 ? { limitReached } : {}),
              validation,
              decomposedTotals,
            },
            claims,
            tracedFigures: tracedFigures(validation),
          };
        },
        catch: (cause) =>
          new VerificationError({
            message: "numeric validation failed unexpectedly",
            layer: "numbers",
            cause,
          }),
      }),
  };
};
