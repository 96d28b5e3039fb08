/**
 * The words of a text as the duplicate check's Jaccard similarity sees them: lower-cased tokens. Unlike a
 * bare whitespace split, punctuation around a word is dropped ("PostgreSQL," and "PostgreSQL" are one word),
 * while inner hyphens, dots and apostrophes stay ("adr-003", "v1.2", "don't").
 */
const wordPattern = /[\p{L}\p{N}]+(?:['’.\-_/][\p{L}\p{N}]+)*/gu;

export const wordSet = (text: string): Set<string> => {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(wordPattern)) words.add(match[0].replace(/’/g, "'"));
  return words;
};

/** Word-level Jaccard similarity |A ∩ B| / |A ∪ B|; 0 when both are empty. */
export const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 && b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / (a.size + b.size - shared);
};

export const textJaccard = (a: string, b: string): number => jaccard(wordSet(a), wordSet(b));
