const dimensions = 256;

const hashWord = (word: string): number => {
  let hash = 2166136261;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % dimensions;
};

/**
 * A deterministic stand-in for an embedding model: word counts hashed into 256 dimensions. Texts that
 * share words are similar; it knows nothing of meaning, which is what tests need.
 */
export const bagOfWordsEmbedding = (text: string): number[] => {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const slot = hashWord(word);
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  return vector;
};
