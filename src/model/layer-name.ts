import { Schema } from "effect";

/** The five model-backed layers of the specification. */
export const ModelLayerName = Schema.Literal(
  "semantic-entropy",
  "fact-decomposition",
  "multi-source",
  "self-consistency",
  "nli",
);
export type ModelLayerName = typeof ModelLayerName.Type;

/** Offline evidence layers: they need sources or an evidence store, never a model. */
export const EvidenceLayerName = Schema.Literal("grounding", "numbers", "citations");
export type EvidenceLayerName = typeof EvidenceLayerName.Type;

/** Every layer name Veracity knows. The specification's `VerificationLayerName` is the model-backed subset. */
export const LayerName = Schema.Union(ModelLayerName, EvidenceLayerName);
export type LayerName = typeof LayerName.Type;

/** Kept for the specification's vocabulary. */
export const VerificationLayerName = ModelLayerName;
export type VerificationLayerName = ModelLayerName;

export const evidenceLayerNames: readonly EvidenceLayerName[] = EvidenceLayerName.literals;
export const modelLayerNames: readonly ModelLayerName[] = ModelLayerName.literals;

export const isEvidenceLayer = (name: LayerName): name is EvidenceLayerName =>
  (evidenceLayerNames as readonly string[]).includes(name);
