import { ModelLayerName } from "../model/layer-name.js";

/**
 * The model each model-backed layer asked for its own: `VERACITY_MODEL_<LAYER>` (the layer name in upper case
 * with underscores: `VERACITY_MODEL_NLI`, `VERACITY_MODEL_FACT_DECOMPOSITION`). A layer without one uses the
 * shared model (`--model` or `VERACITY_MODEL`).
 */
export const layerModelsFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
): Partial<Record<ModelLayerName, string>> =>
  Object.fromEntries(
    ModelLayerName.literals.flatMap((layer) => {
      const model = env[`VERACITY_MODEL_${layer.toUpperCase().replaceAll("-", "_")}`]?.trim();
      return model ? [[layer, model]] : [];
    }),
  );
