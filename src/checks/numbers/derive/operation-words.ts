import type { DerivationKind } from "./formula.js";

/**
 * A total is a sum of items, the whole an item is a share of ("12% of the staff, or 840 employees"), or
 * a count times a price per unit ("the total earnings": earnings per share times the shares).
 */
const totalKinds: readonly DerivationKind[] = ["sum", "whole-of-share", "per-unit-product"];

/** Words that name the operation behind a figure, and the derivations they allow. */
const operationWords: readonly (readonly [RegExp, readonly DerivationKind[]])[] = [
  [/\b(?:average|averaged|mean)\b/i, ["average"]],
  [
    /\b(?:percentage|percent|%)\s+(?:change|increase|decrease|growth|decline)\b|\bgrowth rate\b/i,
    // The percentage change of a rate is often stated in points: 9.0% - 9.5% = -0.5% (a difference of
    // percents only: a difference answers a percent claim only from percent figures).
    ["percent-change", "difference"],
  ],
  [
    /\b(?:change|changed|difference|increase[ds]?|decrease[ds]?|grew|rose|fell|declined?|dropped|gap)\b/i,
    ["difference", "percent-change"],
  ],
  // Total expenses: a total, or what revenue leaves after income (revenue - net income).
  [/\btotal\s+(?:[\p{L}-]+\s+){0,2}?(?:expenses|costs)\b/iu, [...totalKinds, "expenses"]],
  [/\b(?:total|totalled|totaled|sum|combined|altogether|together)\b/i, totalKinds],
  // A ratio may be written as a percent ("the liability to asset ratio was 18.34%").
  [/\bratio\b|\bper\s+(?:employee|unit|customer|user|day|month|year|hour|head)\b/i, ["ratio", "percentage"]],
  [
    /\b(?:percentage|proportion|share|portion|fraction|margin)\b|%\s+of\b/i,
    ["percentage", "percent-of", "ratio"],
  ],
];

const globalPatterns = new Map(
  operationWords.map(([pattern]) => [pattern, new RegExp(pattern.source, "gi")]),
);
const everywhere = (pattern: RegExp): RegExp => globalPatterns.get(pattern) ?? pattern;

/**
 * The derivations a claim's wording allows: "the average was" asks for an average, "the change was" for a
 * difference. The more specific phrase wins ("percentage change" asks for a percent change, not for any
 * percentage). Undefined when the claim names no operation: then any derivation may explain a figure.
 */
export const derivationsNamed = (claimText: string): ReadonlySet<DerivationKind> | undefined => {
  const kinds = new Set<DerivationKind>();
  let rest = claimText;
  for (const [pattern, allowed] of operationWords) {
    if (!pattern.test(rest)) continue;
    for (const kind of allowed) kinds.add(kind);
    // A phrase counts once: "percentage change" is not also a "percentage" and a "change".
    rest = rest.replace(everywhere(pattern), " ");
  }
  return kinds.size > 0 ? kinds : undefined;
};
