import type { DerivationKind } from "../derive/formula.js";
import { derivationsNamed } from "../derive/operation-words.js";
import { writtenAsLevel } from "./stated-direction.js";
import type { NumberCheck } from "./validation-result.js";

/** Where a clause ends: punctuation before a space (not the point of "2.55"), or a word joining statements. */
const clauseBreak = /[.;:,](?=\s|$)|\b(?:and|but|while|whereas)\b/gi;

/**
 * The clause a figure stands in: from the last break before it (at most 100 characters back) to the first
 * break after it (at most 40 characters on), so "grew by 20.9%" names the 20.9 and not the "$3.65 billion" of
 * the next clause.
 */
export const clauseAround = (text: string, start: number, end: number): string => {
  const before = text.slice(Math.max(0, start - 100), start);
  let from = 0;
  for (const match of before.matchAll(clauseBreak)) from = match.index + match[0].length;
  const after = text.slice(end, end + 40);
  const to = after.search(clauseBreak);
  return `${before.slice(from)}${text.slice(start, end)}${to === -1 ? after : after.slice(0, to)}`;
};

/**
 * A derived check with `named`: whether the wording names its operation, in the figure's own clause or in the
 * question. A derivation nobody named may be found by chance ("2" as 13.8 / 6.86 in a summary).
 */
export const withNamedDerivation = (
  check: NumberCheck,
  text: string,
  question: string | undefined,
): NumberCheck => {
  if (check.status !== "derived" || check.derivation === undefined) return check;
  const kind = check.derivation as DerivationKind;
  const named =
    !writtenAsLevel(text, check.span.start) &&
    ((derivationsNamed(clauseAround(text, check.span.start, check.span.end))?.has(kind) ?? false) ||
      (question !== undefined && (derivationsNamed(question)?.has(kind) ?? false)));
  return { ...check, named };
};
