import { availableParallelism } from "node:os";
import type { ResourceLimits } from "node:worker_threads";
import { LRUCache } from "lru-cache";
import { type CalibrationModels, invalidPlattModel } from "../../calibration/calibrator.js";
import type { ValidateInput } from "../../checks/numbers/validate/validate-numbers.js";
import { errorMessage } from "../../model/error-message.js";
import { fnv1a } from "../../model/fnv1a.js";
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
   * (kept-sources.ts), and calls with the same sources go to the same worker. The pool's thread holds the kept
   * texts too, until the worker drops them, is replaced, or (large lane) releases its verifier.
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

/** What a call carries, read without trusting its shape: the worker decodes requests, not the pool. */
type Carried =
  | {
      readonly text?: unknown;
      readonly context?: unknown;
      readonly question?: unknown;
      readonly sources?: unknown;
      readonly evidence?: unknown;
    }
  | null
  | undefined;

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

/** What a call carries to its worker: a request, a numbers input, or the call's own fields. */
const carriedBy = (body: CallBody): Carried => {
  switch (body.op) {
    case "verify":
    case "verifyLean":
    case "verifyPrepared":
      return body.request as Carried;
    case "validateNumbersJson":
      return body.input as Carried;
    case "runLayer":
    case "assessRisk":
      return body as Carried;
    case "updateCalibration":
    case "warmUp":
    case "stopWarmUp":
    case "readJson":
    case "release":
      return undefined;
  }
};

/** A short sample of a text: its length and up to 64 characters at its start, middle and end. */
const sampleOf = (value: unknown): string => {
  if (typeof value !== "string") return "";
  const middle = Math.max(0, Math.floor(value.length / 2) - 32);
  return `${value.length}:${value.slice(0, 64)}${value.slice(middle, middle + 64)}${value.slice(-64)}\u0000`;
};

/**
 * A fingerprint of the evidence a call carries (sources, context, a numbers call's evidence), or undefined when
 * it carries none: calls with the same evidence get the same fingerprint, so they can be sent to the worker
 * whose caches already hold that evidence indexed. Read from samples of each text, never the whole of it, so it
 * costs the same for 10 MB as for 10 KB; two sets that differ only outside the samples share a fingerprint,
 * which only decides where a call runs, never what it answers.
 */
export const evidenceFingerprint = (body: CallBody): number | undefined => {
  const carried = carriedBy(body);
  let sample = "";
  if (Array.isArray(carried?.sources)) for (const source of carried.sources) sample += sampleOf(source);
  if (Array.isArray(carried?.evidence))
    for (const source of carried.evidence) sample += sampleOf((source as Carried)?.text);
  sample += sampleOf(carried?.context);
  return sample.length === 0 ? undefined : fnv1a(sample);
};

/**
 * How many more calls in flight than the least busy worker the worker that holds a call's evidence may have and
 * still get it: a cache hit saves indexing the sources again, but not at the price of a queue.
 */
const affinitySlack = 2;

/**
 * How many evidence sets the pool remembers the worker of (a fingerprint and a worker each): more than a
 * worker's caches keep (`defaultIndexCacheLimits`), so a set a worker may still hold is rarely forgotten.
 */
const rememberedEvidence = 4_096;

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
 * worker with the fewest in flight, or, when their evidence was sent before, to the worker it went to if that
 * one has about as few (its caches may hold that evidence indexed); a large call (`largeCallChars`) goes to the
 * large lane's workers instead, so small calls never wait behind it. A worker that dies fails its in-flight calls with a VerificationError
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

  // The normal worker each recent evidence set was sent to, by fingerprint: its caches may hold that set indexed.
  const holders = new LRUCache<number, Slot>({ max: rememberedEvidence });

  // Of the normal workers: for evidence sent before, the worker it went to (each worker keeps its own caches of
  // indexed sources), unless that worker is busier than the least busy by more than the slack. Evidence no
  // worker has seen gains nothing from any worker's caches, so it goes to the least busy: the worker its
  // fingerprint names only when that one is as idle (spreading new evidence over the pool by its hash), never
  // behind calls the others are free of. Routed by the hash alone, a new set went to the worker it named even
  // with two calls in flight there and another worker idle.
  // Calls without evidence, and every call of a one-worker lane, go to the least busy.
  const choose = (lane: Lane, body: CallBody): { readonly slot: Slot; readonly fingerprint?: number } => {
    const least = leastBusy(lane);
    if (lane.slots.length < 2) return { slot: least };
    const fingerprint = evidenceFingerprint(body);
    if (fingerprint === undefined) return { slot: least };
    const holder = holders.get(fingerprint);
    if (holder !== undefined && lane.slots.includes(holder))
      return {
        slot: holder.pending.size <= least.pending.size + affinitySlack ? holder : least,
        fingerprint,
      };
    const tied = lane.slots[fingerprint % lane.slots.length] as Slot;
    return { slot: tied.pending.size === least.pending.size ? tied : least, fingerprint };
  };

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
    const { slot, fingerprint } = lane === normal ? choose(lane, body) : { slot: leastBusy(lane) };
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
    if (fingerprint !== undefined) holders.set(fingerprint, slot);
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
