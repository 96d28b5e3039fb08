import { Context, Layer } from "effect";
import type { VerificationLayer } from "../model/layer.js";
import type { LayerName } from "../model/layer-name.js";

/** The layers available to the service, by name. Model layers appear only when a model is configured. */
export interface LayerRegistryShape {
  readonly get: (name: LayerName) => VerificationLayer | undefined;
  readonly all: readonly VerificationLayer[];
}

export class LayerRegistry extends Context.Tag("veracity/LayerRegistry")<
  LayerRegistry,
  LayerRegistryShape
>() {}

export const makeLayerRegistry = (layers: readonly VerificationLayer[]): LayerRegistryShape => {
  const byName = new Map<LayerName, VerificationLayer>();
  for (const layer of layers) byName.set(layer.name, layer);
  return { get: (name) => byName.get(name), all: [...byName.values()] };
};

export const LayerRegistryLive = (layers: readonly VerificationLayer[]) =>
  Layer.succeed(LayerRegistry, makeLayerRegistry(layers));
