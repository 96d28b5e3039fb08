import { createVerifier, type Verifier, type VerifierConfig } from "../facade/create-verifier.js";
import { defaultEvidenceLayers } from "../facade/default-layers.js";
import type { VerificationLayer } from "../verification/layer.js";
import { UsageError } from "./command.js";

/** What the CLI commands share to build a verifier: `check`, `eval` and `serve` take the same flags. */
export interface VerifierFlags {
  readonly strict?: boolean;
  /** `--evidence <db>`: an evidence store for the citations layer. */
  readonly evidence?: string;
  /** `--model <spec>`: a model for the model-backed layers. */
  readonly model?: string;
  /** `--calibration <file>`: Platt models per layer. */
  readonly calibration?: string;
}

/** Extra layer factories registered by the optional capabilities (numbers, citations, model layers). */
export interface LayerProvider {
  readonly name: string;
  readonly layers: (flags: VerifierFlags) => Promise<readonly VerificationLayer[]>;
}

const providers: LayerProvider[] = [];

export const registerLayerProvider = (provider: LayerProvider): void => {
  if (!providers.some((existing) => existing.name === provider.name)) providers.push(provider);
};

export const buildVerifier = async (flags: VerifierFlags, extra: VerifierConfig = {}): Promise<Verifier> => {
  const layers: VerificationLayer[] = [...defaultEvidenceLayers()];
  for (const provider of providers) layers.push(...(await provider.layers(flags)));
  if (flags.evidence !== undefined && !layers.some((layer) => layer.name === "citations")) {
    throw new UsageError("--evidence needs the citations layer, which is not available in this build");
  }
  if (flags.model !== undefined && !layers.some((layer) => layer.kind === "model")) {
    throw new UsageError("--model needs the model-backed layers, which are not available in this build");
  }
  return createVerifier({
    ...extra,
    layers,
    settings: { ...extra.settings, ...(flags.strict ? { strict: true } : {}) },
  });
};
