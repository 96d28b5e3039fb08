/** Scale words and suffixes, as written after a number. Case matters for the one-letter suffixes. */
const scaleTable: readonly (readonly [RegExp, number])[] = [
  [/^(?:thousand|thousands)\b/i, 1e3],
  [/^(?:million|millions|mln|mn)\b/i, 1e6],
  [/^(?:billion|billions|bln|bn)\b/i, 1e9],
  [/^(?:trillion|trillions|tn)\b/i, 1e12],
  [/^MM\b/, 1e6],
  [/^[Kk]\b/, 1e3],
  [/^M\b/, 1e6],
  [/^B\b/, 1e9],
  [/^T\b/, 1e12],
];

/** The scale word at the start of `rest` (after an optional space): its multiplier and length. */
export const readScale = (rest: string): { multiplier: number; length: number } | undefined => {
  const space = /^[ \u00a0]?/.exec(rest)?.[0].length ?? 0;
  const after = rest.slice(space);
  for (const [pattern, multiplier] of scaleTable) {
    const match = pattern.exec(after);
    if (match) return { multiplier, length: space + match[0].length };
  }
  return undefined;
};

const currencyMark = String.raw`(?:US\$|S\$|HK\$|A\$|C\$|NT\$|[$€£¥]|\b(?:USD|RMB|EUR|GBP|CHF|CNY|JPY|NT))`;
const declaration = (words: string, suffixes: string) =>
  new RegExp(
    String.raw`\bin\s+(?:[^\s\d]+\s+)?(?:${words})\b|\(\s*(?:in\s+)?(?:${words})\b|\b(?:${words})\s*\)|` +
      String.raw`${currencyMark}\s?['’‘]?\s?(?:${words}${suffixes})\b`,
    "i",
  );

const declarationPatterns: readonly (readonly [RegExp, number])[] = [
  [declaration("thousands?", "|000s?"), 1e3],
  [/['’‘]000s?\b|\(\s*1,000\s*\)|\b000s\b/, 1e3],
  [declaration("millions?", "|m|mn|mm"), 1e6],
  [declaration("billions?", "|bn|b"), 1e9],
];

/**
 * The scales a document declares for its bare figures: "(in millions)", "in thousands", "$'000", "€m".
 * A table's cells are read in these scales.
 */
export const declaredScales = (text: string): number[] => [
  ...new Set(
    declarationPatterns.filter(([pattern]) => pattern.test(text)).map(([, multiplier]) => multiplier),
  ),
];
