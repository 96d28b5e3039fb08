import { Effect } from "effect";
import type { LLMError } from "../llm/errors.js";
import type { LLMServiceShape } from "../llm/llm-service.js";
import type { ClaimFinding } from "../model/claim.js";
import { failingClaims, maxDescribedFailures } from "./failure-report.js";
import { regeneratePrompt, removeMarker, rewriteClaimPrompt } from "./prompts.js";

const maxRewriteTokens = 2048;

/** A model answer that is not a usable rewrite (empty) is an error, never an empty "corrected" text. */
const rewritten = (text: string): string | undefined => {
  const trimmed = text.trim();
  return trimmed.length === 0 ? undefined : trimmed;
};

/** `regenerate`: the model rewrites the whole text, told exactly which claims failed and why. */
export const regenerateText = (
  llm: LLMServiceShape,
  text: string,
  failedLayers: readonly string[],
  claims: readonly ClaimFinding[],
): Effect.Effect<string | undefined, LLMError> =>
  llm
    .complete({
      messages: [{ role: "user", content: regeneratePrompt(text, failedLayers, claims) }],
      temperature: 0,
      maxOutputTokens: maxRewriteTokens,
      purpose: "mitigation.regenerate",
    })
    .pipe(Effect.map((completion) => rewritten(completion.text)));

/** The claims in text order, each starting at or after the end of the one kept before it. */
const withoutOverlaps = (claims: readonly ClaimFinding[]): ClaimFinding[] => {
  const kept: ClaimFinding[] = [];
  for (const claim of [...claims].sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end)) {
    const previous = kept.at(-1);
    if (previous === undefined || claim.span.start >= previous.span.end) kept.push(claim);
  }
  return kept;
};

/**
 * `decompose-and-retry`: each failing claim is rewritten on its own (or removed when the model answers
 * REMOVE) and put back in its place; every other character of the text is kept as it was.
 */
export const decomposeAndRetry = (
  llm: LLMServiceShape,
  text: string,
  claims: readonly ClaimFinding[],
): Effect.Effect<{ readonly text: string; readonly rewritten: number; readonly removed: number }, LLMError> =>
  Effect.gen(function* () {
    // Claims of different layers may overlap: a span already being rewritten is not rewritten again (that
    // would splice one answer into another), so the first of overlapping claims, by position, is kept.
    const failing = withoutOverlaps(failingClaims(claims)).slice(0, maxDescribedFailures);
    const rewrites = yield* Effect.forEach(
      failing,
      (claim) =>
        llm
          .complete({
            messages: [{ role: "user", content: rewriteClaimPrompt(claim) }],
            temperature: 0,
            maxOutputTokens: 512,
            purpose: "mitigation.decompose",
          })
          .pipe(Effect.map((completion) => ({ claim, answer: completion.text.trim() }))),
      { concurrency: 4 },
    );
    let result = text;
    let removed = 0;
    for (const { claim, answer } of [...rewrites].sort((a, b) => b.claim.span.start - a.claim.span.start)) {
      const remove = answer === "" || answer.replace(/[^A-Z]/g, "") === removeMarker;
      if (remove) removed++;
      let end = claim.span.end;
      if (remove) while (end < result.length && (result[end] === " " || result[end] === "\t")) end++;
      result = result.slice(0, claim.span.start) + (remove ? "" : answer) + result.slice(end);
    }
    return { text: result, rewritten: rewrites.length - removed, removed };
  });
