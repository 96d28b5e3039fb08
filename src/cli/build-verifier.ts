import { readFile } from "node:fs/promises";
import { Effect, Either, Schema } from "effect";
import { PlattModel } from "../calibration/platt.js";
import { openCitationsLayer } from "../citations/open-layer.js";
import { createVerifier, type Verifier, type VerifierConfig } from "../facade/create-verifier.js";
import { defaultEvidenceLayers } from "../facade/default-layers.js";
import { EmptyFactualMemory } from "../layers/factual-memory.js";
import { makeModelLayers } from "../layers/index.js";
import { makeModelRiskModel } from "../layers/risk-model.js";
import { makeLLMServiceFromConfig } from "../llm/live.js";
import { LLMService } from "../llm/llm-service.js";
import { LayerName } from "../model/layer-name.js";
import type { CalibrationModels } from "../verification/calibrator.js";
import type { VerificationLayer } from "../verification/layer.js";
import { UsageError } from "./command.js";

/** What the CLI commands share to build a verifier: `check`, `eval` and `serve` take the same flags. */
export interface VerifierFlags {
  readonly strict?: boolean;
  /** `--evidence <db>`: an evidence store for the citations layer (PGlite directory or postgres:// URL). */
  readonly evidence?: string;
  /** `--model <spec>`: a model for the model-backed layers; `VERACITY_MODEL` otherwise. */
  readonly model?: string;
  /** `--calibration <file>`: Platt models per layer. */
  readonly calibration?: string;
}

const CalibrationFile = Schema.Struct({
  layers: Schema.Record({ key: LayerName, value: PlattModel }),
});

/** Reads Platt models from a calibration file: `{ "layers": { "<layer>": { "a": ..., "b": ... } } }`. */
export const readCalibrationFile = async (path: string): Promise<CalibrationModels> => {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read calibration file ${path}: ${(error as Error).message}`);
  }
  const decoded = Schema.decodeUnknownEither(CalibrationFile)(raw);
  if (Either.isLeft(decoded))
    throw new UsageError(`${path} is not a calibration file: expected { "layers": { name: { a, b } } }`);
  return decoded.right.layers;
};

/**
 * Model-backed layers and the risk model over one LLM service (one cache, one concurrency limit). Without a
 * model the five layers are still returned: they report "not ready" with what to set. A malformed model
 * string or a missing API key is a usage error.
 */
const modelParts = async (flags: VerifierFlags, env: Readonly<Record<string, string | undefined>>) => {
  const program = Effect.gen(function* () {
    const llm = yield* makeLLMServiceFromConfig(env, flags.model === undefined ? {} : { model: flags.model });
    const layers = yield* makeModelLayers().pipe(
      Effect.provideService(LLMService, llm),
      Effect.provide(EmptyFactualMemory),
    );
    const riskModel =
      llm.textUnavailable === undefined
        ? yield* makeModelRiskModel.pipe(Effect.provideService(LLMService, llm))
        : undefined;
    return { layers: Object.values(layers) as VerificationLayer[], riskModel };
  });
  const result = await Effect.runPromise(Effect.either(program));
  if (Either.isLeft(result)) throw new UsageError(result.left.message);
  return result.right;
};

/**
 * The verifier the CLI runs: the offline evidence layers, the citations layer when `--evidence` names a
 * store, and the model-backed layers (ready when a model is configured). `close` also closes the stores.
 */
export const buildVerifier = async (
  flags: VerifierFlags,
  extra: VerifierConfig = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Verifier> => {
  const closers: (() => Promise<void>)[] = [];
  const layers: VerificationLayer[] = [...defaultEvidenceLayers()];
  if (flags.evidence !== undefined) {
    const rpcUrl = env.VERACITY_ETH_RPC_URL;
    const citations = await openCitationsLayer(flags.evidence, rpcUrl ? { rpcUrl } : {}).catch(
      (error: Error) => {
        throw new UsageError(`cannot open the evidence store: ${error.message}`);
      },
    );
    layers.push(citations.layer);
    closers.push(citations.close);
  }
  const model = await modelParts(flags, env);
  layers.push(...model.layers);
  const calibration =
    flags.calibration === undefined ? undefined : await readCalibrationFile(flags.calibration);
  const verifier = createVerifier({
    ...extra,
    layers: [...layers, ...(extra.extraLayers ?? [])],
    ...(model.riskModel ? { riskModel: model.riskModel } : {}),
    ...(calibration ? { calibration: { ...calibration, ...extra.calibration } } : {}),
    settings: { ...extra.settings, ...(flags.strict ? { strict: true } : {}) },
  });
  return {
    ...verifier,
    close: async () => {
      await verifier.close();
      for (const close of closers) await close();
    },
  };
};
