/** 32-bit FNV-1a of a word. */
export const hashWord = (word: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/**
 * A word set as sorted, distinct 32-bit hashes: compact at a million memories, and two sorted arrays give
 * their exact Jaccard in one merge. (Two words colliding in 32 bits is the only approximation.)
 */
export const hashWordSet = (words: Iterable<string>): Uint32Array => {
  const hashes = Uint32Array.from(new Set(Array.from(words, hashWord)));
  return hashes.sort();
};

/** Exact Jaccard of two sorted distinct hash arrays. */
export const sortedJaccard = (a: Uint32Array, b: Uint32Array): number => {
  if (a.length === 0 && b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
};
