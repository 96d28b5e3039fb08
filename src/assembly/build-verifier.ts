import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Either } from "effect";
import type { CalibrationModels } from "../calibration/calibrator.js";
import type { CombinerModel } from "../calibration/combiner/combiner.js";
import { parseCalibrationCombiner, parseCalibrationFile } from "../calibration/file.js";
import {
  type RepositoryCitations,
  repositoryCitationOptions,
} from "../checks/citations/verifiers/repository-citations.js";
import {
  createVerifier,
  type Verifier,
  type VerifierConfig,
  type VerifierTools,
} from "../facade/create-verifier.js";
import { defaultEvidenceLayers } from "../facade/default-layers.js";
import type { WorkerVerifierConfig } from "../facade/worker-pool/messages.js";
import type { UsageReport } from "../llm/llm-service.js";
import type { VerificationLayer } from "../model/layer.js";
import { UsageError } from "../model/usage-error.js";
import type { VerificationSettings } from "../verification/config.js";
import { resolveSettings, settingsFromEnv } from "../verification/config-sources.js";
import { readConfigFile, type VeracityConfig } from "./config-file.js";
import type { VerifierFlags } from "./flags.js";
import { layerModelsFromEnv } from "./layer-models.js";

export type { VerifierFlags };

/**
 * Reads Platt models from a calibration file: `{ "layers": { "<layer>": { "a": ..., "b": ... } }, ...metadata }`
 * (what `veracity calibrate` writes); any subset of layers may be present.
 */
export const readCalibrationFile = async (
  path: string,
): Promise<{ readonly layers: CalibrationModels; readonly combiner: CombinerModel | undefined }> => {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read calibration file ${path}: ${(error as Error).message}`);
  }
  const parsed = parseCalibrationFile(text);
  if (Either.isLeft(parsed)) throw new UsageError(`${path}: ${parsed.left.message}`);
  const combiner = parseCalibrationCombiner(text);
  if (Either.isLeft(combiner)) throw new UsageError(`${path}: ${combiner.left.message}`);
  return { layers: parsed.right, combiner: combiner.right };
};

/** A store location that is a directory on disk (not `memory://` and not a PostgreSQL URL). */
const isDirectoryStore = (location: string) =>
  location !== "memory://" && !/^postgres(?:ql)?:\/\//i.test(location);

/** The configuration with its file and directory paths made absolute against its `cwd`. */
const withResolvedPaths = (flags: VerifierFlags): VerifierFlags => {
  if (flags.cwd === undefined) return flags;
  const cwd = flags.cwd;
  const at = (file: string) => resolve(cwd, file);
  return {
    ...flags,
    ...(flags.config === undefined ? {} : { config: at(flags.config) }),
    ...(flags.calibration === undefined ? {} : { calibration: at(flags.calibration) }),
    ...(flags.repository === undefined ? {} : { repository: at(flags.repository) }),
    ...(flags.evidence === undefined || !isDirectoryStore(flags.evidence)
      ? {}
      : { evidence: at(flags.evidence) }),
  };
};

/**
 * The flags with what the configuration file adds: its shared keys where no flag sets them (the model also
 * gives way to `VERACITY_MODEL`), its relative paths resolved, like the flags', against `cwd`.
 */
const withFileDefaults = (
  flags: VerifierFlags,
  file: VeracityConfig,
  env: Readonly<Record<string, string | undefined>>,
): VerifierFlags => ({
  ...(file.calibration === undefined ? {} : { calibration: file.calibration }),
  ...(file.evidence === undefined ? {} : { evidence: file.evidence }),
  ...(file.repository === undefined ? {} : { repository: file.repository }),
  ...(file.model === undefined || env.VERACITY_MODEL !== undefined ? {} : { model: file.model }),
  ...flags,
});

/** The assembled verifier; with a model, `modelUsage` reads the model's cumulative calls, tokens and cost. */
export type BuiltVerifier = Verifier &
  Pick<VerifierTools, "updateCalibration"> & {
    readonly modelUsage?: () => Promise<UsageReport>;
    /** The Platt models a calibration file set, per layer (empty without one: the defaults apply). */
    readonly calibrationModels: CalibrationModels;
    /**
     * The settings in force (the configuration file, `VERACITY_*` variables and flags over the defaults), so a
     * worker pool beside this verifier can run with the same ones.
     */
    readonly settings: Partial<VerificationSettings>;
    /**
     * Whether it runs only the offline evidence layers every verifier has: no model, no evidence store or
     * repository, no layers, risk model or mitigator of the caller's. A worker pool built with `settings` and
     * `calibrationModels` (`createWorkerPoolVerifier`) then verifies exactly as it does.
     */
    readonly offlineOnly: boolean;
    /**
     * What a worker pool (`createWorkerPoolVerifier`) is built from to verify exactly as this verifier does: the
     * settings and calibration in force and, with a repository, its citations. Absent when this verifier runs
     * what a worker thread cannot: a model, an evidence store, or layers, a risk model or a mitigator of the
     * caller's.
     */
    readonly poolConfig?: WorkerVerifierConfig;
  };

/**
 * The verifier every surface runs: the offline evidence layers, the citations layer when `--evidence` names a
 * store, and the model-backed layers (ready when a model is configured). `close` also closes the stores.
 */
export const buildVerifier = async (
  given: VerifierFlags,
  extra: VerifierConfig = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<BuiltVerifier> => {
  const configPath = given.config ?? env.VERACITY_CONFIG;
  // Defaults, then the configuration file, then `VERACITY_*` variables, then flags (see config-sources.ts).
  const { file, settings } = await (async () => {
    const file =
      configPath === undefined
        ? undefined
        : await readConfigFile(given.cwd === undefined ? configPath : resolve(given.cwd, configPath));
    return { file, settings: resolveSettings(file?.settings ?? {}, settingsFromEnv(env)) };
  })().catch((error: Error) => {
    throw new UsageError(error.message);
  });
  const flags = withResolvedPaths(file === undefined ? given : withFileDefaults(given, file, env));
  const calibration =
    flags.calibration === undefined ? undefined : await readCalibrationFile(flags.calibration);
  // The model-backed parts load only when a model is configured; without one the service lists those layers
  // as skipped with what to set, and mitigation stays offline.
  const modelConfigured =
    (flags.model ?? env.VERACITY_MODEL ?? env.VERACITY_EMBEDDING_MODEL) !== undefined ||
    Object.keys(layerModelsFromEnv(env)).length > 0;
  const model = modelConfigured
    ? await (await import("./model-parts.js")).modelParts(flags, env)
    : { layers: [], riskModel: undefined, mitigator: undefined, modelUsage: undefined };
  const closers: (() => Promise<void>)[] = [];
  const layers: VerificationLayer[] = [
    ...defaultEvidenceLayers(extra.settings?.sourceCache ?? settings.sourceCache),
    ...model.layers,
  ];
  const rpcUrl = env.VERACITY_ETH_RPC_URL;
  // The citations of the repository (and the Ethereum endpoint), as plain data: a worker builds the same layer.
  const citations: RepositoryCitations = {
    ...(rpcUrl ? { rpcUrl } : {}),
    ...(flags.repository === undefined ? {} : repositoryCitationOptions(flags.repository, env)),
  };
  if (flags.evidence !== undefined || flags.repository !== undefined) {
    if (flags.evidence === undefined)
      layers.push((await import("../checks/citations/layer.js")).makeCitationsLayer(citations));
    else {
      // A PGlite directory that is not there would be created empty, and every citation checked against
      // nothing: a mistyped path is an error, never an empty store.
      const isDirectory = isDirectoryStore(flags.evidence);
      if (
        isDirectory &&
        !(await stat(flags.evidence).then(
          (info) => info.isDirectory(),
          () => false,
        ))
      )
        throw new UsageError(
          `the evidence store ${flags.evidence} does not exist; import evidence into it first ('veracity evidence import ... --db ${flags.evidence}') or pass a postgres:// URL`,
        );
      const { openCitationsLayer } = await import("../checks/citations/open-layer.js");
      const opened = await openCitationsLayer(flags.evidence, citations).catch((error: Error) => {
        throw new UsageError(`cannot open the evidence store: ${error.message}`);
      });
      layers.push(opened.layer);
      closers.push(opened.close);
    }
  }
  const inForce: Partial<VerificationSettings> = {
    ...settings,
    ...(calibration?.combiner ? { combiner: calibration.combiner } : {}),
    ...extra.settings,
    ...(flags.strict ? { strict: true } : {}),
  };
  const verifier = createVerifier({
    ...extra,
    layers: [...layers, ...(extra.extraLayers ?? [])],
    ...(model.riskModel ? { riskModel: model.riskModel } : {}),
    ...(model.mitigator ? { mitigator: model.mitigator } : {}),
    ...(calibration ? { calibration: { ...calibration.layers, ...extra.calibration } } : {}),
    settings: inForce,
  });
  // What a worker thread can build as well: the offline evidence layers, and the citations of a repository.
  const poolable =
    !modelConfigured &&
    flags.evidence === undefined &&
    (extra.extraLayers ?? []).length === 0 &&
    extra.riskModel === undefined &&
    extra.mitigator === undefined;
  const calibrationModels = { ...calibration?.layers, ...extra.calibration };
  return {
    ...verifier,
    calibrationModels,
    settings: inForce,
    offlineOnly: poolable && flags.repository === undefined,
    ...(poolable
      ? {
          poolConfig: {
            settings: inForce,
            calibration: calibrationModels,
            ...(flags.repository === undefined ? {} : { citations }),
          },
        }
      : {}),
    ...(model.modelUsage === undefined ? {} : { modelUsage: model.modelUsage }),
    close: async () => {
      await verifier.close();
      for (const close of closers) await close();
    },
  };
};
