import type { ClaimFinding } from "../../model/claim.js";
import { isEvidenceLayer } from "../../model/layer-name.js";
import type { LayerResult } from "../../model/layer-result.js";

/**
 * The answer-level features the combiner reads, each oriented so that a higher value speaks for a
 * hallucination. They come from the claims' signals (what the grounding check measured), the issue codes of
 * every layer, and the scores of the model-backed layers. Adding a feature changes the model file's version.
 */
export const answerFeatureNames = [
  "missingWordPairsMean",
  "missingWordPairsWorst",
  "missingFromBestPassageMean",
  "missingFromBestPassageWorst",
  "missingNearbyWorst",
  "novelWordsWorst",
  "lowSupportMean",
  "lowSupportWorst",
  "contradicted",
  "entityNotInSources",
  "valueMismatch",
  "directionMismatch",
  "antonymConflict",
  "orphanNumber",
  "suspiciousNumber",
  "quoteNotInSources",
  "numberNotInSources",
  "negationMismatch",
  "modelLayerDoubt",
] as const;
export type AnswerFeatureName = (typeof answerFeatureNames)[number];
export type AnswerFeatures = Readonly<Record<AnswerFeatureName, number>>;

const issueFeatures: Readonly<Partial<Record<string, AnswerFeatureName>>> = {
  ENTITY_NOT_IN_SOURCES: "entityNotInSources",
  VALUE_MISMATCH: "valueMismatch",
  NUMBER_MISMATCH: "valueMismatch",
  DIRECTION_MISMATCH: "directionMismatch",
  ANTONYM_CONFLICT: "antonymConflict",
  ORPHAN_NUMBER: "orphanNumber",
  SUSPICIOUS_NUMBER: "suspiciousNumber",
  QUOTE_NOT_IN_SOURCES: "quoteNotInSources",
  NUMBER_NOT_IN_SOURCES: "numberNotInSources",
  NEGATION_MISMATCH: "negationMismatch",
};

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
const worst = (values: readonly number[]): number => values.reduce((most, value) => Math.max(most, value), 0);

/** True when some layer judged at least one of the claims: the features then say something. */
export const hasJudgedClaims = (claims: readonly Pick<ClaimFinding, "verdict">[]): boolean =>
  claims.some((claim) => claim.verdict !== "unverifiable");

/** The features of one verified answer: its merged claim findings and the (calibrated) layer results. */
export const answerFeatures = (
  claims: readonly Omit<ClaimFinding, "evidence">[],
  layers: readonly Omit<LayerResult, "claims">[],
): AnswerFeatures => {
  const grounded = claims.flatMap((claim) => (claim.signals ? [{ claim, signals: claim.signals }] : []));
  const worded = grounded.filter(({ signals }) => signals.contentWords > 0);
  const features: Record<AnswerFeatureName, number> = {
    missingWordPairsMean: mean(grounded.map(({ signals }) => 1 - signals.pairShare)),
    missingWordPairsWorst: worst(grounded.map(({ signals }) => 1 - signals.pairShare)),
    missingFromBestPassageMean: mean(grounded.map(({ signals }) => 1 - signals.bestPassageShare)),
    missingFromBestPassageWorst: worst(grounded.map(({ signals }) => 1 - signals.bestPassageShare)),
    missingNearbyWorst: worst(worded.map(({ signals }) => 1 - signals.localCoverage)),
    novelWordsWorst: worst(worded.map(({ signals }) => signals.novelty)),
    lowSupportMean: mean(grounded.map(({ claim }) => 1 - claim.score)),
    lowSupportWorst: worst(grounded.map(({ claim }) => 1 - claim.score)),
    contradicted: claims.some((claim) => claim.verdict === "contradicted") ? 1 : 0,
    entityNotInSources: 0,
    valueMismatch: 0,
    directionMismatch: 0,
    antonymConflict: 0,
    orphanNumber: 0,
    suspiciousNumber: 0,
    quoteNotInSources: 0,
    numberNotInSources: 0,
    negationMismatch: 0,
    modelLayerDoubt: worst(
      layers.filter((layer) => !isEvidenceLayer(layer.layer)).map((layer) => 1 - layer.score),
    ),
  };
  for (const claim of claims)
    for (const issue of claim.issues) {
      const feature = issueFeatures[issue.code];
      if (feature !== undefined) features[feature] = 1;
    }
  return features;
};
