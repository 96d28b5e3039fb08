import { availableParallelism } from "node:os";
import type { ResourceLimits } from "node:worker_threads";
import { type CalibrationModels, invalidPlattModel } from "../../calibration/calibrator.js";
import type { ValidateInput } from "../../checks/numbers/validate/validate-numbers.js";
import { type CacheStats, sumCacheStats } from "../../model/cache-stats.js";
import { errorMessage } from "../../model/error-message.js";
import type { LayerName } from "../../model/layer-name.js";
import type { LayerResult } from "../../model/layer-result.js";
import type { LeanVerificationResult } from "../../model/lean-result.js";
import type { VerificationRequest } from "../../model/request.js";
import type { VerificationResult } from "../../model/result.js";
import type { RiskLevel } from "../../model/risk.js";
import type { JsonReading, OffThreadJsonReader } from "../../text/json-text.js";
import type { EventHandler } from "../../verification/events.js";
import type { Verifier } from "../create-verifier.js";
import type { AnswerOptions, PreparedAnswer } from "../prepared-answer.js";
import {
  defaultVerificationWarmUp,
  type VerificationWarmUpOptions,
  type VerificationWarmUpReport,
} from "../warm-up-verifier.js";
import { VerifierBusyError } from "./errors.js";
import { type Carried, type CarriedEvidence, carriedBy, makeEvidenceRouter } from "./evidence-routing.js";
import { defaultKeptSourcesLimits, type KeptSourcesLimits, type WorkerKeptLimits } from "./kept-sources.js";
import type { VerifierChoice, WorkerVerifierConfig } from "./messages.js";
import { type CallBody, createWorkerSlots, type Slot } from "./worker-slots.js";

/**
 * How `createWorkerPoolVerifier` builds its pool: the settings, calibration and repository citations each
 * worker's verifier is built from (plain data, since they cross a thread boundary), the number of workers, and
 * the pool's limits.
 */
export interface WorkerPoolOptions extends WorkerVerifierConfig {
  /** Worker threads in the pool (at least 1). */
  readonly workers: number;
  /**
   * Calls waiting or running per worker; one more is refused with `VerifierBusyError` (default 256), so a
   * flood of requests cannot queue without bound.
   */
  readonly maxPendingPerWorker?: number;
  /** The worker's module; default `verify-worker` next to this file (tests pass one that misbehaves). */
  readonly workerUrl?: URL;
  /**
   * Longest a call may take from the moment it is sent to a ready worker, waiting included. Past it the call fails with a
   * VerificationTimeoutError and its worker is terminated, which is the only way to stop synchronous work; the
   * worker's other calls are sent again to its replacement (verification has no side effects). Default: none.
   */
  readonly callTimeoutMs?: number;
  /**
   * A call carrying at least this many characters (the answer text, its context and question, and every source;
   * for `validateNumbersJson` the text, the question and every evidence text) is large: it runs in the large
   * lane, worker threads of its own, so the seconds a 10 MB source takes never delay the small calls queued in
   * the other workers. Default 1,000,000. 0 or `Infinity` turns the lane off: every call goes to the workers
   * above, the least busy first.
   */
  readonly largeCallChars?: number;
  /**
   * Worker threads of the large lane (default 1). None runs until the first large call: the first starts then,
   * another only when a large call arrives while each started one has a call in flight.
   */
  readonly largeWorkers?: number;
  /**
   * Calls waiting or running per large-lane worker; one more is refused with `VerifierBusyError` (default 16,
   * far fewer than the small calls' limit, since each may take seconds).
   */
  readonly maxPendingPerLargeWorker?: number;
  /**
   * How long a large-lane worker may stay without a call before it releases its verifier, in milliseconds
   * (default 30,000; `Infinity` never). A worker that verified a 10 MB source holds 100-150 MB of memory it no
   * longer needs, most of it the verifier's caches: the worker drops that verifier for a new one and V8 gives the
   * memory back over the next half minute or so, while the worker keeps the code its calls compiled. So the next
   * large call runs warm, for about 30 MB that the idle worker keeps: a 10 MB source took 0.29-0.39 s in a
   * released worker, against 1.1-1.4 s in a new one started from tsc's files (2026-11-27; a new worker now starts
   * from one bundled file in about 0.2 s, and still runs its first call cold).
   */
  readonly largeWorkerIdleMs?: number;
  /**
   * Heap limits of each worker that verifies small calls (Node's `ResourceLimits`); default
   * `defaultWorkerResourceLimits`, a young generation of 96 MB. The large lane's workers keep V8's defaults.
   */
  readonly workerResourceLimits?: Readonly<ResourceLimits>;
  /**
   * Which sources each worker keeps between calls, so a source sent again is named instead of copied to it
   * again: sources of `minKeptChars` characters or more (default 100,000) sent to it a second time (a source
   * sent once is never held), up to `keptChars` per small-call
   * worker (default 8,000,000) and `largeLaneKeptChars` per large-lane worker (default 16,000,000), least
   * recently used out first; 0 keeps none. Copying large texts to a worker costs about as much as verifying them
   * (kept-sources.ts), and a call goes to the worker that was sent most of its sources before. The pool's thread
   * holds the kept texts too, until the worker drops them, is replaced, or (large lane) releases its verifier.
   */
  readonly keptSources?: Partial<KeptSourcesLimits>;
}

/**
 * The small-call workers' heap limits: a young generation of 96 MB (semi-spaces of 32 MB) where V8's default
 * is 48 MB (16 MB). A verification allocates about 1.5 MB, much of it alive until it ends, so each
 * young-generation collection copies the calls in flight (about 2 MB each time): with twice the room, half as
 * many collections copy about as much each. Measured with a pool of two on distinct real payloads, alternating
 * in one process with a pool of V8's defaults: a median 1.07x the throughput over eleven runs (0.985-1.135x),
 * for about 30 MB more resident memory per busy worker (docs/BENCHMARKS.md, stop 33). Not for the large lane:
 * a 10 MB source's verification is bound by its peak memory, not by collections.
 */
export const defaultWorkerResourceLimits: Readonly<ResourceLimits> = { maxYoungGenerationSizeMb: 96 };

/** The pool's verifier, plus numeric validation run in a worker (answered as JSON text). */
export interface WorkerPoolVerifier extends Verifier {
  /**
   * The same pool, its workers, limits and subscribers, verifying with the offline evidence layers only: without
   * the citations layer a pool built with `citations` adds. For a caller that offers both, such as a server's
   * `/v1/check` beside its `/v1/verify`. In a pool without `citations` it verifies as the pool does. Closing it
   * closes the pool.
   */
  readonly evidenceLayersOnly: Omit<WorkerPoolVerifier, "evidenceLayersOnly">;
  /** `verify`, answered as a lean result (`leanResult`): what a caller that reads no evidence passages needs. */
  readonly verifyLean: (request: VerificationRequest) => Promise<LeanVerificationResult>;
  /** `validateNumbers` run in a worker, answered as the result's JSON text (this thread never serializes it). */
  readonly validateNumbersJson: (input: ValidateInput) => Promise<string>;
  /**
   * A JSON text given as UTF-8 bytes, read in a worker as `readJsonText` reads it: a large request body decoded
   * and parsed without holding this thread (bytes of `largeCallChars` or more go to the large lane).
   */
  readonly readJsonOffThread: OffThreadJsonReader;
  /**
   * New Platt models for the given layers in every worker, and in every worker started later (a replacement
   * after a deadline or a crash, the large lane's). Resolves once each running worker has applied them; a
   * worker that dies meanwhile is replaced by one built with them.
   */
  readonly updateCalibration: (models: CalibrationModels) => Promise<void>;
  /**
   * Each worker that verifies small calls verifies made-up answers for a while (`warmUpVerifier`, bounds per
   * worker, and at most half the call deadline), so the first real calls meet code V8 has compiled already.
   * Resolves once every worker is done, with the workers, the verifications they ran in all, the wall time, and
   * the first error that ended one. Never rejects: a warm-up that fails leaves a slower start, not a broken pool.
   */
  readonly warmUp: (options?: VerificationWarmUpOptions) => Promise<PoolWarmUpReport>;
  /**
   * What the caches of every worker started so far did and hold, added up per cache: the workers' verifiers of
   * both kinds (`evidenceLayersOnly` answers the same), their released verifiers' counts included.
   */
  readonly cacheStats: () => Promise<readonly CacheStats[]>;
}

/** What `WorkerPoolVerifier.warmUp` did, over all its workers. */
export interface PoolWarmUpReport extends VerificationWarmUpReport {
  /** The workers that were sent the warm-up (those verifying small calls). */
  readonly workers: number;
}

/**
 * Worker threads a server verifies in on a machine of `cores` cores: one per core but one, at most 4, since the
 * main thread keeps HTTP, the audit trail and the stores, and its share grows with the requests answered; never
 * fewer than two from two cores up: on two cores the main thread idles about two thirds of the time (HTTP and
 * the audit trail took about a third of a core at 180 requests/s), and two workers answered 1.24-1.45x as many
 * distinct real requests as one (docs/BENCHMARKS.md, 2026-11-26). On one core, none: checks run in the server's
 * own thread.
 */
export const defaultVerifyWorkers = (cores: number = availableParallelism()): number =>
  cores < 2 ? 0 : Math.min(4, Math.max(2, cores - 1));

const charsOf = (value: unknown): number => (typeof value === "string" ? value.length : 0);

const charsOfEach = (values: unknown, chars: (value: unknown) => number): number => {
  if (!Array.isArray(values)) return 0;
  let total = 0;
  for (const value of values) total += chars(value);
  return total;
};

const carriedChars = (carried: Carried): number =>
  charsOf(carried?.text) +
  charsOf(carried?.context) +
  charsOf(carried?.question) +
  charsOfEach(carried?.sources, charsOf) +
  charsOfEach(carried?.evidence, (source) => charsOf((source as Carried)?.text));

/**
 * The characters of text a call hands its worker: string lengths summed, nothing serialized or copied, so
 * measuring a 10 MB request costs as little as a small one. A malformed request (the worker refuses it) counts
 * what it has of the right type and never throws here.
 */
export const callChars = (body: CallBody): number =>
  body.op === "readJson" ? body.bytes.length : carriedChars(carriedBy(body));

/** Workers that serve one kind of call, and how many calls each may hold. */
interface Lane {
  /** Its started workers; the large lane has none until its first call. */
  readonly slots: Slot[];
  /** Most workers it starts. */
  readonly size: number;
  readonly maxPending: number;
  /** How the busy error names its workers. */
  readonly workersName: string;
  /** The heap limits its workers start with (V8's defaults when none). */
  readonly resourceLimits: Readonly<ResourceLimits> | undefined;
  /** Which large sources its workers keep between calls. */
  readonly kept: WorkerKeptLimits;
}

/** The size from which a call goes to the large lane, unless `largeCallChars` says otherwise. */
export const defaultLargeCallChars = 1_000_000;

/**
 * A Verifier whose verifications run in worker threads, each with its own offline evidence layers, so the
 * CPU-bound checks use the machine's other cores and never block the caller's event loop. Calls go to the
 * worker with the fewest in flight, or, when their sources were sent before (together or in other company), to
 * the worker that was sent the most of their characters if that one has about as few (its caches may hold those
 * sources read; `makeEvidenceRouter`); a large call (`largeCallChars`) goes to the large lane's workers instead,
 * so small calls never wait behind it. A worker that dies fails its in-flight calls with a VerificationError
 * (never a pass) and is replaced.
 */
export const createWorkerPoolVerifier = (options: WorkerPoolOptions): WorkerPoolVerifier => {
  if (!Number.isInteger(options.workers) || options.workers < 1)
    throw new RangeError(`a worker pool needs at least one worker (got ${options.workers})`);
  const largeWorkers = options.largeWorkers ?? 1;
  if (!Number.isInteger(largeWorkers) || largeWorkers < 1)
    throw new RangeError(`the large lane needs at least one worker (got ${largeWorkers})`);
  const largeCallChars = options.largeCallChars ?? defaultLargeCallChars;
  if (Number.isNaN(largeCallChars) || largeCallChars < 0)
    throw new RangeError(`largeCallChars must be 0 or more (got ${largeCallChars})`);
  // 0 as well as Infinity: a configuration file has no Infinity to write, and a lane every call goes to would
  // only be the normal workers under another name.
  const largeLaneOn = largeCallChars > 0 && largeCallChars !== Number.POSITIVE_INFINITY;
  const largeIdleMs = options.largeWorkerIdleMs ?? 30_000;
  if (Number.isNaN(largeIdleMs) || largeIdleMs < 0)
    throw new RangeError(`largeWorkerIdleMs must be 0 or more (got ${largeIdleMs})`);
  const smallLimits = options.workerResourceLimits ?? defaultWorkerResourceLimits;
  const handlers = new Set<EventHandler>();
  const slots = createWorkerSlots({
    workerUrl: options.workerUrl,
    callTimeoutMs: options.callTimeoutMs,
    config: {
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.calibration ? { calibration: options.calibration } : {}),
      ...(options.citations ? { citations: options.citations } : {}),
    },
    onEvent: (event) => {
      for (const handler of handlers) {
        try {
          void Promise.resolve(handler(event)).catch(() => {});
        } catch {
          // A subscriber's error never reaches a verification, as in the in-thread event bus.
        }
      }
    },
  });
  const keptLimits = { ...defaultKeptSourcesLimits, ...options.keptSources };
  const normalKept = { minKeptChars: keptLimits.minKeptChars, keptChars: keptLimits.keptChars };
  const normal: Lane = {
    slots: Array.from({ length: options.workers }, () => slots.open(smallLimits, normalKept)),
    size: options.workers,
    maxPending: Math.max(1, options.maxPendingPerWorker ?? 256),
    workersName: "verification worker",
    resourceLimits: smallLimits,
    kept: normalKept,
  };
  const large: Lane = {
    slots: [],
    size: largeWorkers,
    maxPending: Math.max(1, options.maxPendingPerLargeWorker ?? 16),
    workersName: "large-call verification worker",
    resourceLimits: undefined,
    kept: { minKeptChars: keptLimits.minKeptChars, keptChars: keptLimits.largeLaneKeptChars },
  };

  // The lane's least busy worker; a lane below its size starts another rather than queue behind a busy one.
  const leastBusy = (lane: Lane): Slot => {
    let chosen = lane.slots[0];
    for (const slot of lane.slots)
      if (chosen !== undefined && slot.pending.size < chosen.pending.size) chosen = slot;
    if (chosen === undefined || (chosen.pending.size > 0 && lane.slots.length < lane.size)) {
      chosen = slots.open(lane.resourceLimits, lane.kept);
      lane.slots.push(chosen);
    }
    return chosen;
  };

  // Which normal worker each call goes to: the one sent the most of its evidence before (each worker keeps its
  // own caches of each source's reading), within a slack of the least busy.
  const router = makeEvidenceRouter<Slot>();

  // The large lane's idle workers, each with the timer that has it release its verifier unless a call comes first.
  const idleTimers = new Map<Slot, NodeJS.Timeout>();
  const releaseWhenIdle = (slot: Slot) => {
    if (largeIdleMs === Number.POSITIVE_INFINITY || slot.pending.size > 0 || !large.slots.includes(slot))
      return;
    if (slots.refusal() !== undefined) return; // closed: every worker is stopped already
    clearTimeout(idleTimers.get(slot));
    const timer = setTimeout(() => {
      idleTimers.delete(slot);
      // Every call to a lane worker goes through `send`, which clears this timer: the worker is idle here. Sent
      // past `send`, so the release itself starts no idle time. A worker that died meanwhile was replaced by a
      // new one, which holds nothing to release; a closed pool refuses the call. Neither is a caller's error.
      if (large.slots.includes(slot)) slots.send<void>(slot, { op: "release" }).catch(() => undefined);
    }, largeIdleMs);
    // An idle worker's timer keeps no process alive.
    timer.unref();
    idleTimers.set(slot, timer);
  };
  // Every call to a worker, whichever lane it is in: a large-lane worker's idle time starts again after it.
  const send = <A>(slot: Slot, body: CallBody): Promise<A> => {
    if (!large.slots.includes(slot)) return slots.send<A>(slot, body);
    clearTimeout(idleTimers.get(slot));
    idleTimers.delete(slot);
    const answer = slots.send<A>(slot, body);
    const settled = () => releaseWhenIdle(slot);
    answer.then(settled, settled);
    return answer;
  };

  const call = <A>(body: CallBody): Promise<A> => {
    const refused = slots.refusal();
    if (refused) return Promise.reject(refused);
    const lane = largeLaneOn && callChars(body) >= largeCallChars ? large : normal;
    let slot = leastBusy(lane);
    let evidence: CarriedEvidence | undefined;
    if (lane === normal) ({ worker: slot, evidence } = router.choose(lane.slots, slot, body));
    if (slot.pending.size >= lane.maxPending) {
      let pending = 0;
      for (const each of lane.slots) pending += each.pending.size;
      return Promise.reject(
        new VerifierBusyError({
          message: `every ${lane.workersName} has ${lane.maxPending} calls waiting; try again shortly`,
          pending,
        }),
      );
    }
    // Remembered only once sent: a refused call leaves no evidence in any worker.
    if (evidence !== undefined) router.remember(evidence, slot);
    return send<A>(slot, body);
  };

  // The calls that verify, in the workers' configured verifiers or in those of the offline evidence layers only.
  const verifying = (choice: VerifierChoice) => ({
    verify: (request: VerificationRequest) => call<VerificationResult>({ op: "verify", request, ...choice }),
    verifyPrepared: (request: VerificationRequest, options: AnswerOptions) =>
      call<PreparedAnswer>({ op: "verifyPrepared", request, options, ...choice }),
    verifyLean: (request: VerificationRequest) =>
      call<LeanVerificationResult>({ op: "verifyLean", request, ...choice }),
    runLayer: (layer: LayerName, text: string, context?: string, sources?: readonly string[]) =>
      call<LayerResult>({
        op: "runLayer",
        layer,
        text,
        ...(context === undefined ? {} : { context }),
        ...(sources === undefined ? {} : { sources }),
        ...choice,
      }),
    assessRisk: (text: string, context?: string) =>
      call<RiskLevel>({ op: "assessRisk", text, ...(context === undefined ? {} : { context }), ...choice }),
  });

  const shared: Omit<WorkerPoolVerifier, keyof ReturnType<typeof verifying> | "evidenceLayersOnly"> = {
    validateNumbersJson: (input) => call<string>({ op: "validateNumbersJson", input }),
    readJsonOffThread: (bytes, maxDepth) => call<JsonReading>({ op: "readJson", bytes, maxDepth }),
    updateCalibration: async (models) => {
      const invalid = invalidPlattModel(models);
      if (invalid) throw invalid;
      const config = slots.config();
      slots.setConfig({ ...config, calibration: { ...config.calibration, ...models } });
      // Every worker started so far, in either lane. One started from now on (the large lane's first, a
      // replacement) is built with the new models, so it needs no message.
      await Promise.all(
        slots.all().map((slot) => {
          const worker = slot.worker;
          return send<void>(slot, { op: "updateCalibration", models }).catch((error: unknown) => {
            // A worker that stopped meanwhile was replaced by one built from the new calibration; any other
            // refusal (a model that is not finite, a closed pool) is the caller's to see.
            if (slot.worker === worker || slots.refusal() !== undefined) throw error;
          });
        }),
      );
    },
    warmUp: async ({ signal, ...warmUpOptions } = {}) => {
      const started = performance.now();
      // Within half the call deadline: a warm-up stopped at the deadline would cost its worker, replaced cold.
      const maxMs = Math.min(
        warmUpOptions.maxMs ?? defaultVerificationWarmUp.maxMs,
        options.callTimeoutMs === undefined ? Number.POSITIVE_INFINITY : options.callTimeoutMs / 2,
      );
      // A function, so the check after the warm-up is not narrowed by the one before it.
      const stoppedBySignal = () => (signal?.aborted === true ? String(signal.reason) : undefined);
      const stoppedBefore = stoppedBySignal();
      if (stoppedBefore !== undefined)
        return { workers: 0, verifications: 0, ms: 0, stoppedBy: stoppedBefore };
      // The signal ends each worker's warm-up before its next made-up check: calls sent meanwhile run beside
      // one made-up check at most, not beside the rest of the warm-up.
      const stop = () => {
        for (const slot of normal.slots) send<void>(slot, { op: "stopWarmUp" }).catch(() => undefined);
      };
      signal?.addEventListener("abort", stop, { once: true });
      const reports = await Promise.all(
        normal.slots.map((slot) =>
          send<VerificationWarmUpReport>(slot, { op: "warmUp", ...warmUpOptions, maxMs }).catch(
            (error: unknown): VerificationWarmUpReport => ({
              verifications: 0,
              ms: 0,
              stoppedBy: errorMessage(error),
            }),
          ),
        ),
      ).finally(() => signal?.removeEventListener("abort", stop));
      const stoppedBy =
        stoppedBySignal() ?? reports.find((report) => report.stoppedBy !== undefined)?.stoppedBy;
      return {
        workers: reports.length,
        verifications: reports.reduce((sum, report) => sum + report.verifications, 0),
        ms: Math.round(performance.now() - started),
        ...(stoppedBy === undefined ? {} : { stoppedBy }),
      };
    },
    subscribe: async (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    // Every worker started so far, both lanes, added up per cache. Sent past the lane's `send`: asking is no use
    // of a large-lane worker, so its idle time runs on. A worker that died since is replaced by a new one with
    // empty caches, and what the dead one counted is lost with it; the pool's counts then fall, which a
    // Prometheus counter reads as a restart.
    cacheStats: async () => {
      const refused = slots.refusal();
      if (refused) throw refused;
      const each = await Promise.all(
        slots
          .all()
          .map((slot) => slots.send<readonly CacheStats[]>(slot, { op: "cacheStats" }).catch(() => [])),
      );
      // Beside them, what the pool's record of each worker's kept large texts did (kept-sources.ts).
      return sumCacheStats([...each, slots.all().map((slot) => slot.kept.stats())]);
    },
    close: async () => {
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      await slots.close();
    },
  };
  return {
    ...verifying({}),
    ...shared,
    evidenceLayersOnly: { ...verifying({ evidenceLayersOnly: true }), ...shared },
  };
};
