/**
 * Whether a stored fact confirms a fact of the answer. Similarity alone is not enough: "built in 1889" and
 * "built in 1887", "Acme acquired Birch" and "Birch acquired Acme", "was approved" and "was not approved"
 * share nearly every word. A stored fact confirms only when it states every content word of the fact, in
 * the same order (numbers included) and with the same polarity; anything else is a near miss and goes to the
 * model check like a fact the memory never held.
 */

/** Words that carry little meaning on their own (negations are handled apart). */
const fillerWords = new Set(
  "a an the of in on at to by for from with and as is are was were be been being it its this that these those which who whom has have had".split(
    " ",
  ),
);
const negations = new Set(["not", "no", "never", "none", "nor", "neither", "without", "cannot", "n't"]);

const words = (text: string): string[] =>
  (
    text
      .toLowerCase()
      .replace(/n't\b/g, " not")
      .match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu) ?? []
  ).map((word) => (/^\d[\d,]*(?:\.\d+)?$/.test(word) ? word.replace(/,/g, "") : word));

const contentWords = (text: string) =>
  words(text).filter((word) => !fillerWords.has(word) && !negations.has(word));
const negationCount = (text: string) => words(text).filter((word) => negations.has(word)).length;

/** True when `needle`'s words appear in `haystack` in the same order (other words may sit between). */
const inOrder = (needle: readonly string[], haystack: readonly string[]): boolean => {
  let position = 0;
  for (const word of needle) {
    const found = haystack.indexOf(word, position);
    if (found < 0) return false;
    position = found + 1;
  }
  return true;
};

export const memoryConfirms = (fact: string, stored: string): boolean => {
  const factWords = contentWords(fact);
  const storedWords = contentWords(stored);
  if (factWords.length === 0) return false;
  if (negationCount(fact) % 2 !== negationCount(stored) % 2) return false;
  return inOrder(factWords, storedWords);
};
