/** Cosine similarity of two vectors, 0 when either is all zeros; vectors of different length compare their common prefix. */
export const cosineSimilarity = (a: readonly number[], b: readonly number[]): number => {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / (Math.sqrt(normA) * Math.sqrt(normB));
};

/** Similarity of every pair (i < j). */
export const pairwiseSimilarities = (vectors: readonly (readonly number[])[]): number[] => {
  const similarities: number[] = [];
  for (let i = 0; i < vectors.length; i++) {
    for (let j = i + 1; j < vectors.length; j++) {
      similarities.push(cosineSimilarity(vectors[i] ?? [], vectors[j] ?? []));
    }
  }
  return similarities;
};

/**
 * Normalized entropy in [0, 1] of how `total` samples fall into clusters of the given sizes
 * (Farquhar et al., 2024: entropy over meaning clusters). 0: all samples mean the same; 1: all differ.
 */
export const clusterEntropy = (clusterSizes: readonly number[], total: number): number => {
  if (total <= 1) return 0;
  let entropy = 0;
  for (const size of clusterSizes) {
    if (size <= 0) continue;
    const p = size / total;
    entropy -= p * Math.log(p);
  }
  return Math.min(1, entropy / Math.log(total));
};
