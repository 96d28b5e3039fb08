import { clamp01, mean } from "../shared/findings.js";
import { clusterEntropy, cosineSimilarity, pairwiseSimilarities } from "../shared/similarity.js";

export interface ClaimStability {
  /** How much the samples agree with one another, in [0, 1]. */
  readonly consistency: number;
  /** How much the samples agree with the claim, in [0, 1]. */
  readonly support: number;
  /** 1 - consistency: the (semantic) entropy of the samples. */
  readonly entropy: number;
  /** min(consistency, support): a claim is stable only if the samples agree with each other and with it. */
  readonly score: number;
}

const stability = (consistency: number, support: number): ClaimStability => ({
  consistency: clamp01(consistency),
  support: clamp01(support),
  entropy: clamp01(1 - consistency),
  score: clamp01(Math.min(consistency, support)),
});

/** From embeddings: vector 0 is the claim, the rest are the samples. */
export const stabilityFromEmbeddings = (vectors: readonly (readonly number[])[]): ClaimStability => {
  const [claim, ...samples] = vectors;
  const consistency = samples.length < 2 ? 1 : mean(pairwiseSimilarities(samples));
  const support = claim === undefined ? 0 : mean(samples.map((sample) => cosineSimilarity(claim, sample)));
  return stability(consistency, support);
};

/**
 * From meaning clusters over statements 0..samples (0 is the claim). Repairs a sloppy grouping: unknown
 * numbers are dropped, a number listed twice counts once, a missing number is its own cluster.
 */
export const stabilityFromClusters = (
  clusters: readonly (readonly number[])[],
  samples: number,
): ClaimStability => {
  const clusterOf = new Map<number, number>();
  clusters.forEach((members, cluster) => {
    for (const member of members) {
      if (Number.isInteger(member) && member >= 0 && member <= samples && !clusterOf.has(member)) {
        clusterOf.set(member, cluster);
      }
    }
  });
  let next = clusters.length;
  for (let statement = 0; statement <= samples; statement++) {
    if (!clusterOf.has(statement)) clusterOf.set(statement, next++);
  }
  const sizes = new Map<number, number>();
  for (let sample = 1; sample <= samples; sample++) {
    const cluster = clusterOf.get(sample) ?? -1;
    sizes.set(cluster, (sizes.get(cluster) ?? 0) + 1);
  }
  const entropy = clusterEntropy([...sizes.values()], samples);
  const support = samples === 0 ? 0 : (sizes.get(clusterOf.get(0) ?? -1) ?? 0) / samples;
  return stability(1 - entropy, support);
};
