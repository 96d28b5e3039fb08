import { Effect, Either } from "effect";
import type { Logger } from "pino";
import type { AuditAppend } from "../audit/entry.js";
import { canonicalJson, sha256Hex } from "../audit/hash.js";
import type { CalibrationModels } from "../calibration/calibrator.js";
import { calibrationFileJson } from "../calibration/file.js";
import { type CalibrationRun, fitLayerCalibrations } from "../calibration/fit-layers.js";
import type { CalibrationOutcomeStore } from "../calibration/outcome-store.js";
import type { CalibrationStore } from "../calibration/store.js";
import { runEffect } from "./run-effect.js";

/** The name refits are saved under in the calibration store: a restarted server loads the newest. */
export const refitCalibrationName = "server-refit";

/** Once a day, as a refit needs reviewed outcomes to accumulate between runs. */
export const defaultCalibrationUpdateIntervalMs = 86_400_000;

/** One refit: what was fitted (with quality on the outcomes the fit did not see) and what was not. */
export interface RefitReport {
  readonly at: string;
  /** Who asked: `scheduler` for a periodic refit, else the authenticated reviewer. */
  readonly actor: string;
  readonly outcomes: number;
  readonly refitted: readonly {
    readonly layer: string;
    readonly model: { readonly a: number; readonly b: number };
    readonly tuneSamples: number;
    readonly reportSamples: number;
    readonly eceBefore: number | null;
    readonly eceAfter: number | null;
  }[];
  readonly skipped: readonly { readonly layer: string; readonly reason: string }[];
  /** Why nothing was fitted at all (no outcomes since the last refit), when that is the case. */
  readonly unchangedBecause?: string;
}

export interface Recalibration {
  /** Refits now from every kept outcome, applies and records the result. */
  readonly refitNow: (actor: string, reason?: string) => Promise<RefitReport>;
  /** The models in use and the last refit (of this process), for `GET /v1/calibration`. */
  readonly status: () => {
    readonly intervalMs: number;
    /** The Platt models set by a calibration file or a refit (layers absent here use the defaults). */
    readonly models: CalibrationModels;
    readonly lastRefit: RefitReport | undefined;
  };
  /** Stops the schedule; a refit in flight finishes. */
  readonly stop: () => Promise<void>;
}

export interface RecalibrationDeps {
  readonly outcomes: CalibrationOutcomeStore;
  readonly store: CalibrationStore;
  /** Applies refitted models to every verifier of the server (in this thread and in its workers). */
  readonly apply: (models: CalibrationModels) => Promise<void>;
  /** Appends an audit entry for a refit that was applied. */
  readonly audit: (entry: AuditAppend) => Promise<void>;
  readonly logger: Logger;
  /** 0 turns the schedule off (refits then run only when asked). */
  readonly intervalMs: number;
  /** The models the verifiers started with (a calibration file's or a saved refit's). */
  readonly initial?: CalibrationModels;
  /**
   * The newest outcome the models in use were fitted on (a saved refit loaded at start): the schedule refits
   * only once an outcome newer than this arrives. Default: none, so the first tick fits what is there.
   */
  readonly fittedThrough?: number;
  readonly now?: () => Date;
}

const reportOf = (run: CalibrationRun, actor: string, outcomes: number, at: string): RefitReport => ({
  at,
  actor,
  outcomes,
  refitted: run.layers.map((layer) => ({
    layer: layer.layer,
    model: layer.fit.model,
    tuneSamples: layer.tuneCount,
    reportSamples: layer.before.count,
    eceBefore: layer.before.ece ?? null,
    eceAfter: layer.after.ece ?? null,
  })),
  skipped: run.skipped,
});

/**
 * Refits each model-backed layer's Platt map from the outcomes reviewers recorded, every `intervalMs` and on
 * request: the fit uses half of the outcomes (by a hash of their id) and reports its calibration error on the
 * other half. A layer with too few outcomes of both labels keeps its model. A refit that fitted something is
 * saved in the calibration store (a restart loads it), applied to the verifiers, then appended to the audit
 * trail as `calibration.refit`. A refit that fails leaves the models in use as they were and is logged.
 */
export const startRecalibration = (deps: RecalibrationDeps): Recalibration => {
  const now = deps.now ?? (() => new Date());
  let lastRefit: RefitReport | undefined;
  let models: CalibrationModels = deps.initial ?? {};
  let fittedThrough = deps.fittedThrough ?? -1;
  let running: Promise<RefitReport> | undefined;

  const refit = async (actor: string, onlyIfNew: boolean, reason?: string): Promise<RefitReport> => {
    const at = now().toISOString();
    const newest = await runEffect(deps.outcomes.newestId);
    if (onlyIfNew && newest === fittedThrough)
      return {
        at,
        actor,
        outcomes: 0,
        refitted: [],
        skipped: [],
        unchangedBecause: "no outcomes since the last refit",
      };
    const pairs = await runEffect(deps.outcomes.pairs);
    const fitted = fitLayerCalibrations(pairs);
    if (Either.isLeft(fitted)) throw fitted.left;
    const run = fitted.right;
    const report = reportOf(run, actor, pairs.length, at);
    fittedThrough = newest;
    if (report.refitted.length === 0) return report;
    const fileJson = calibrationFileJson(run, { source: "reviewed outcomes", createdAt: at });
    await runEffect(deps.store.save(refitCalibrationName, fileJson));
    await deps.apply(run.models);
    models = { ...models, ...run.models };
    await deps.audit({
      operation: "calibration.refit",
      actor,
      inputHash: sha256Hex(canonicalJson(pairs.map((pair) => [pair.id, pair.layer, pair.score, pair.label]))),
      outputHash: sha256Hex(fileJson),
      citationsVerified: 0,
      citationsFailed: 0,
      confidence: null,
      executionTimeMs: 0,
      metadata: {
        outcomes: report.outcomes,
        refitted: report.refitted,
        skipped: report.skipped,
        ...(reason === undefined ? {} : { reason }),
      },
    });
    lastRefit = report;
    deps.logger.info(
      { refitted: report.refitted.map((layer) => layer.layer), actor },
      "calibration refitted",
    );
    return report;
  };

  // One refit at a time: a request while the schedule's runs (or the reverse) waits for it, then runs its own.
  const serialized = (actor: string, onlyIfNew: boolean, reason?: string): Promise<RefitReport> => {
    const next = (running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => refit(actor, onlyIfNew, reason));
    running = next;
    return next;
  };

  const timer =
    deps.intervalMs > 0
      ? setInterval(() => {
          serialized("scheduler", true).catch((error: unknown) =>
            deps.logger.error(
              { error: String((error as Error)?.message ?? error) },
              "calibration refit failed",
            ),
          );
        }, deps.intervalMs)
      : undefined;
  timer?.unref();

  return {
    refitNow: (actor, reason) => serialized(actor, false, reason),
    status: () => ({ intervalMs: deps.intervalMs, models, lastRefit }),
    stop: async () => {
      if (timer !== undefined) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
};

/**
 * The newest saved refit, or undefined when there is none (a server started without a calibration file
 * applies it). A store that cannot be read is an error: starting on the defaults would silently undo refits.
 */
export const loadSavedRefit = (store: CalibrationStore): Promise<CalibrationModels | undefined> =>
  runEffect(
    store
      .load(refitCalibrationName)
      .pipe(Effect.catchTag("InputError", () => Effect.succeed<CalibrationModels | undefined>(undefined))),
  );
