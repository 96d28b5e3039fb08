import { stem } from "../../text/tokens.js";
import type { ClaimContext, GroundingFinding } from "./claim-context.js";
import { findSwap } from "./neighbourhood.js";

/**
 * Closed sets of mutually exclusive values: a claim naming one member while the passage it matches names
 * another ("second quarter" against "third quarter", "million" against "billion", "Tuesday" against
 * "Monday") most likely swapped the value.
 */
const categories: Readonly<Record<string, readonly string[]>> = {
  ordinal: ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"],
  quarter: ["q1", "q2", "q3", "q4"],
  scale: ["thousand", "million", "billion", "trillion"],
  weekday: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  month: [
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
  ],
  season: ["spring", "summer", "autumn", "winter"],
  period: ["daily", "weekly", "monthly", "quarterly", "annual"],
};

/** For each member's stem: its category and the category's other members (the values it could be swapped for). */
const categoryByStem: ReadonlyMap<string, { name: string; others: ReadonlySet<string> }> = (() => {
  const map = new Map<string, { name: string; others: ReadonlySet<string> }>();
  for (const [name, words] of Object.entries(categories)) {
    const stems = new Set(words.map(stem));
    for (const member of stems)
      map.set(member, { name, others: new Set([...stems].filter((other) => other !== member)) });
  }
  return map;
})();

export const checkCategoricalValues = (context: ClaimContext): GroundingFinding[] => {
  if (context.aligned.length === 0) return [];
  const findings: GroundingFinding[] = [];
  context.tokens.forEach((token, position) => {
    const category = categoryByStem.get(token.stem);
    if (!category) return;
    const other = findSwap(context.tokens, position, context.aligned, category.others)?.token.text;
    if (other === undefined) return;
    findings.push({
      code: "VALUE_MISMATCH",
      message: `"${token.text}" where the matching source passage has another ${category.name} ("${other}…")`,
      span: token.span,
      penalty: 0.35,
      contradicts: true,
    });
  });
  return findings;
};
