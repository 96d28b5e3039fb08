import { Duration, Effect, Option } from "effect";
import type { ClaimFinding } from "../model/claim.js";
import type { Mitigation } from "../model/mitigation.js";
import type { VerificationResult } from "../model/result.js";
import { flagUncertain } from "./actions.js";

export interface BudgetedMitigation<E, R> {
  /** The mitigator's work for the failed text. */
  readonly mitigate: Effect.Effect<Mitigation, E, R>;
  readonly text: string;
  readonly claims: readonly ClaimFinding[];
  /** Milliseconds left of the verification's latency budget, read when needed. */
  readonly remainingMs: () => number;
  /** Verifies a text within the given milliseconds, without mitigating it again. */
  readonly reverify: (text: string, budgetMs: number) => Effect.Effect<VerificationResult, unknown, R>;
}

/** Actions whose text a model wrote: it is new, unverified text and is verified like the first answer. */
const modelWritten = new Set<Mitigation["action"]>(["regenerate", "decompose-and-retry"]);

/** Below this many milliseconds a verification cannot run any layer: the regeneration stays unverified. */
const minimumVerificationMs = 1;

/**
 * Mitigation inside the verification's latency budget: the mitigator gets what is left of the budget (an
 * instant action such as blocking always completes); past it, the failing claims are flagged instead. A
 * model-written rewrite is then verified like the first answer with the time still left, and the mitigation
 * carries that verification; a rewrite that could not be verified in time is reported as not passed.
 */
export const mitigateWithinBudget = <E, R>(
  options: BudgetedMitigation<E, R>,
): Effect.Effect<Mitigation, E, R> =>
  Effect.gen(function* () {
    const budget = Math.max(options.remainingMs(), minimumVerificationMs);
    const finished = yield* Effect.timeoutOption(options.mitigate, Duration.millis(budget));
    if (Option.isNone(finished)) {
      return {
        action: "flag-uncertain",
        reason: `mitigation did not finish within the ${Math.round(budget)} ms left of the latency budget, so the failing claims are flagged instead`,
        originalText: options.text,
        correctedText: flagUncertain(options.text, options.claims),
      } satisfies Mitigation;
    }
    const mitigation = finished.value;
    if (!modelWritten.has(mitigation.action) || mitigation.correctedText === undefined) return mitigation;
    const left = options.remainingMs();
    const unverified = (reason: string): Mitigation => ({
      ...mitigation,
      verification: { passed: false, overallConfidence: 0, reasons: [reason], claims: [], totalLatencyMs: 0 },
    });
    if (left < minimumVerificationMs)
      return unverified("no time was left in the latency budget to verify the rewritten text");
    const verified = yield* Effect.either(options.reverify(mitigation.correctedText, left));
    if (verified._tag === "Left")
      return unverified(
        `the rewritten text could not be verified: ${(verified.left as { message?: string })?.message ?? String(verified.left)}`,
      );
    const result = verified.right;
    return {
      ...mitigation,
      verification: {
        passed: result.passed,
        overallConfidence: result.overallConfidence,
        reasons: result.reasons,
        claims: result.claims,
        totalLatencyMs: result.totalLatencyMs,
      },
    };
  });
