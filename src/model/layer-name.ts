import { Schema } from "effect";

/**
 * The five model-backed layers, each of which asks a model: semantic entropy, fact decomposition,
 * multi-source agreement, self-consistency and natural language inference (NLI). A risk profile lists which
 * of them run.
 */
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

/** Every layer name Veracity knows: the model-backed layers and the offline evidence layers. */
export const LayerName = Schema.Union(ModelLayerName, EvidenceLayerName);
/** The name of any Veracity layer, evidence or model-backed (the decoded type of the schema above). */
export type LayerName = typeof LayerName.Type;

/**
 * Another name for `ModelLayerName`: the layers a risk profile chooses between (evidence layers run whenever
 * they can).
 */
export const VerificationLayerName = ModelLayerName;
export type VerificationLayerName = ModelLayerName;

export const evidenceLayerNames: readonly EvidenceLayerName[] = EvidenceLayerName.literals;
export const modelLayerNames: readonly ModelLayerName[] = ModelLayerName.literals;

export const isEvidenceLayer = (name: LayerName): name is EvidenceLayerName =>
  (evidenceLayerNames as readonly string[]).includes(name);
