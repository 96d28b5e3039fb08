import { readFile } from "node:fs/promises";
import { Effect, Either } from "effect";
import { parseCalibrationFile } from "../calibration/file.js";
import { openCitationsLayer } from "../citations/open-layer.js";
import { createVerifier, type Verifier, type VerifierConfig } from "../facade/create-verifier.js";
import { defaultEvidenceLayers } from "../facade/default-layers.js";
import { EmptyFactualMemory } from "../layers/factual-memory.js";
import { makeModelLayers } from "../layers/index.js";
import { makeModelRiskModel } from "../layers/risk-model.js";
import { makeLLMServiceFromConfig } from "../llm/live.js";
import { LLMService } from "../llm/llm-service.js";
import { makeModelMitigator } from "../mitigation/model-mitigator.js";
import type { CalibrationModels } from "../verification/calibrator.js";
import { resolveSettings, settingsFromEnv, settingsFromFile } from "../verification/config-sources.js";
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
  /** `--config <file>` (or `VERACITY_CONFIG`): verification settings as JSON. */
  readonly config?: string;
}

/**
 * Reads Platt models from a calibration file: `{ "layers": { "<layer>": { "a": ..., "b": ... } }, ...metadata }`
 * (what `veracity calibrate` writes); any subset of layers may be present.
 */
export const readCalibrationFile = async (path: string): Promise<CalibrationModels> => {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read calibration file ${path}: ${(error as Error).message}`);
  }
  const parsed = parseCalibrationFile(text);
  if (Either.isLeft(parsed)) throw new UsageError(`${path}: ${parsed.left.message}`);
  return parsed.right;
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
    // With a model, failures can be regenerated; without one the mitigator degrades and says so.
    const mitigator = makeModelMitigator(llm.textUnavailable === undefined ? llm : undefined);
    return { layers: Object.values(layers) as VerificationLayer[], riskModel, mitigator };
  });
  const result = await Effect.runPromise(Effect.either(program));
  if (Either.isLeft(result)) throw new UsageError(result.left.message);
  return result.right;
};

/** Defaults, then the configuration file, then `VERACITY_*` variables (see config-sources.ts). */
const configuredSettings = async (
  path: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
) => resolveSettings(path === undefined ? {} : await settingsFromFile(path), settingsFromEnv(env));

/**
 * The verifier the CLI runs: the offline evidence layers, the citations layer when `--evidence` names a
 * store, and the model-backed layers (ready when a model is configured). `close` also closes the stores.
 */
export const buildVerifier = async (
  flags: VerifierFlags,
  extra: VerifierConfig = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Verifier> => {
  const settings = await configuredSettings(flags.config ?? env.VERACITY_CONFIG, env).catch(
    (error: Error) => {
      throw new UsageError(error.message);
    },
  );
  const calibration =
    flags.calibration === undefined ? undefined : await readCalibrationFile(flags.calibration);
  const model = await modelParts(flags, env);
  const closers: (() => Promise<void>)[] = [];
  const layers: VerificationLayer[] = [...defaultEvidenceLayers(), ...model.layers];
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
  const verifier = createVerifier({
    ...extra,
    layers: [...layers, ...(extra.extraLayers ?? [])],
    ...(model.riskModel ? { riskModel: model.riskModel } : {}),
    mitigator: model.mitigator,
    ...(calibration ? { calibration: { ...calibration, ...extra.calibration } } : {}),
    settings: { ...settings, ...extra.settings, ...(flags.strict ? { strict: true } : {}) },
  });
  return {
    ...verifier,
    close: async () => {
      await verifier.close();
      for (const close of closers) await close();
    },
  };
};
