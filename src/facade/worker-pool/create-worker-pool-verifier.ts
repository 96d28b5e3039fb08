import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type CalibrationModels, invalidPlattModel } from "../../calibration/calibrator.js";
import type { ValidateInput } from "../../checks/numbers/validate/validate-numbers.js";
import { VerificationError, VerificationTimeoutError } from "../../model/errors.js";
import type { LayerResult } from "../../model/layer-result.js";
import type { VerificationResult } from "../../model/result.js";
import type { RiskLevel } from "../../model/risk.js";
import type { EventHandler } from "../../verification/events.js";
import type { Verifier } from "../create-verifier.js";
import type { PreparedAnswer } from "../prepared-answer.js";
import { VerifierBusyError } from "./errors.js";
import {
  deserializeError,
  type WorkerCall,
  type WorkerReply,
  type WorkerVerifierConfig,
} from "./messages.js";

/**
 * How `createWorkerPoolVerifier` builds its pool: the settings and calibration each worker's verifier is built
 * from (plain data, since they cross a thread boundary), the number of workers, and the pool's limits.
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
}

/** The pool's verifier, plus numeric validation run in a worker (answered as JSON text). */
export interface WorkerPoolVerifier extends Verifier {
  readonly validateNumbersJson: (input: ValidateInput) => Promise<string>;
  /**
   * New Platt models for the given layers in every worker, and in every worker started later (a replacement
   * after a deadline or a crash). Resolves once each running worker has applied them; a worker that dies
   * meanwhile is replaced by one built with them.
   */
  readonly updateCalibration: (models: CalibrationModels) => Promise<void>;
}

/** One worker per core the main thread does not need, at most 4: the main thread keeps HTTP and the stores. */
export const defaultVerifyWorkers = (): number => Math.min(4, Math.max(0, availableParallelism() - 1));

/** A worker that dies this many times in a row before it is ready stops the pool (a broken build, say). */
const maxFailedStarts = 3;

// The build runs the compiled worker; from sources (tests, tsx) a TypeScript worker is loaded through tsx.
// In the bundled command (dist/cli, see scripts/bundle-cli.mjs) this code sits in dist/cli, and the worker is
// the compiled one in dist/facade/worker-pool.
const workerEntry = (given?: URL): { readonly url: URL; readonly sourceEntry?: string } => {
  const fromSources = import.meta.url.endsWith(".ts");
  const beside = new URL(fromSources ? "./verify-worker.ts" : "./verify-worker.js", import.meta.url);
  const url =
    given ??
    (fromSources || existsSync(fileURLToPath(beside))
      ? beside
      : new URL("../facade/worker-pool/verify-worker.js", import.meta.url));
  return url.pathname.endsWith(".ts")
    ? { url: new URL("./run-from-sources.mjs", import.meta.url), sourceEntry: url.href }
    : { url };
};

/**
 * The parent's Node options, which a worker inherits (loaders, conditions, source maps), minus those that only
 * make sense for the parent's own entry point: `node --input-type=module -e "..."` would otherwise make every
 * worker refuse to start.
 */
export const workerExecArgv = (parent: readonly string[] = process.execArgv): string[] => {
  const kept: string[] = [];
  for (let index = 0; index < parent.length; index += 1) {
    const option = parent[index] as string;
    if (["-e", "--eval", "-p", "--print", "--input-type"].includes(option)) {
      index += 1;
      continue;
    }
    if (/^(?:--input-type|--eval|--print)=/.test(option)) continue;
    kept.push(option);
  }
  return kept;
};

/**
 * `execArgv` without the options Node refuses in a worker, as its ERR_WORKER_INVALID_EXEC_ARGV message lists
 * them: V8 and process-wide options such as `--max-old-space-size=4096` or `--max-semi-space-size=64`, which a
 * server is often started with. A listed option written without "=" loses the value that follows it too.
 */
export const withoutRefusedOptions = (execArgv: readonly string[], message: string): string[] => {
  const refused = new Set(
    (message.split(": ").slice(1).join(": ") || "")
      .split(/,\s*/)
      .map((option) => option.trim())
      .filter((option) => option.startsWith("-")),
  );
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index += 1) {
    const option = execArgv[index] as string;
    if (!refused.has(option)) {
      kept.push(option);
      continue;
    }
    const next = execArgv[index + 1];
    if (!option.includes("=") && next !== undefined && !next.startsWith("-")) index += 1;
  }
  return kept;
};

const isRefusedOptions = (error: unknown): error is Error =>
  error instanceof Error && (error as { code?: unknown }).code === "ERR_WORKER_INVALID_EXEC_ARGV";

type CallBody = WorkerCall extends infer Call ? (Call extends WorkerCall ? Omit<Call, "id"> : never) : never;

interface Pending {
  readonly body: CallBody;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  timer?: NodeJS.Timeout | undefined;
}

interface Slot {
  worker: Worker;
  readonly pending: Map<number, Pending>;
  ready: boolean;
}

/**
 * A Verifier whose verifications run in worker threads, each with its own offline evidence layers, so the
 * CPU-bound checks use the machine's other cores and never block the caller's event loop. Calls go to the
 * worker with the fewest in flight. A worker that dies fails its in-flight calls with a VerificationError
 * (never a pass) and is replaced.
 */
export const createWorkerPoolVerifier = (options: WorkerPoolOptions): WorkerPoolVerifier => {
  if (!Number.isInteger(options.workers) || options.workers < 1)
    throw new RangeError(`a worker pool needs at least one worker (got ${options.workers})`);
  const entry = workerEntry(options.workerUrl);
  const maxPending = Math.max(1, options.maxPendingPerWorker ?? 256);
  // Replaced (never mutated) when the calibration is updated: a worker started later is built with the new one.
  let workerData: WorkerVerifierConfig = {
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.calibration ? { calibration: options.calibration } : {}),
  };
  const handlers = new Set<EventHandler>();
  let nextId = 1;
  let closing = false;
  let failedStarts = 0;
  let broken: Error | undefined;

  const settle = (pending: Pending) => {
    if (pending.timer !== undefined) clearTimeout(pending.timer);
  };

  const failAll = (slot: Slot, error: Error) => {
    for (const pending of slot.pending.values()) {
      settle(pending);
      pending.reject(error);
    }
    slot.pending.clear();
  };

  const onReply = (slot: Slot, reply: WorkerReply) => {
    switch (reply.kind) {
      case "ready": {
        slot.ready = true;
        failedStarts = 0;
        const timeoutMs = options.callTimeoutMs;
        if (timeoutMs !== undefined)
          for (const [id, pending] of slot.pending)
            pending.timer ??= setTimeout(() => expire(slot, id, timeoutMs), timeoutMs);
        return;
      }
      case "event":
        for (const handler of handlers) {
          try {
            void Promise.resolve(handler(reply.event)).catch(() => {});
          } catch {
            // A subscriber's error never reaches a verification, as in the in-thread event bus.
          }
        }
        return;
      case "result":
      case "failure": {
        const pending = slot.pending.get(reply.id);
        if (pending === undefined) return;
        slot.pending.delete(reply.id);
        settle(pending);
        if (reply.kind === "result") pending.resolve(reply.value);
        else pending.reject(deserializeError(reply.error));
        return;
      }
    }
  };

  // The parent's options a worker accepts: learnt from Node's refusal the first time, then kept.
  let execArgv = workerExecArgv();
  const newWorker = (): Worker => {
    const settings = {
      workerData:
        entry.sourceEntry === undefined ? workerData : { ...workerData, sourceEntry: entry.sourceEntry },
    };
    try {
      return new Worker(entry.url, { ...settings, execArgv });
    } catch (error) {
      if (!isRefusedOptions(error)) throw error;
      execArgv = withoutRefusedOptions(execArgv, error.message);
      return new Worker(entry.url, { ...settings, execArgv });
    }
  };

  const start = (slot: Slot) => {
    const worker = newWorker();
    slot.worker = worker;
    slot.ready = false;
    worker.on("message", (reply: WorkerReply) => onReply(slot, reply));
    worker.on("error", (error) => {
      if (slot.worker !== worker) return;
      failAll(slot, new VerificationError({ message: `verification worker failed: ${error.message}` }));
    });
    worker.on("exit", (code) => {
      // A worker terminated for a deadline was replaced already; its other calls went to the replacement.
      if (slot.worker !== worker) return;
      failAll(slot, new VerificationError({ message: `verification worker stopped (exit code ${code})` }));
      if (closing) return;
      if (!slot.ready && ++failedStarts >= maxFailedStarts) {
        broken = new VerificationError({ message: "verification workers fail to start; see the server log" });
        return;
      }
      start(slot);
    });
  };

  const slots: Slot[] = Array.from({ length: options.workers }, () => {
    const slot = { pending: new Map<number, Pending>(), ready: false } as Slot;
    start(slot);
    return slot;
  });

  // The call overran its deadline: it fails, its worker (busy with it, maybe for minutes) is terminated and
  // replaced, and the worker's other calls are sent again to the replacement, each with a new deadline.
  const expire = (slot: Slot, id: number, timeoutMs: number) => {
    const expired = slot.pending.get(id);
    if (expired === undefined) return;
    slot.pending.delete(id);
    expired.reject(
      new VerificationTimeoutError({
        message: `the verification took longer than ${timeoutMs} ms and was stopped`,
        timeoutMs,
      }),
    );
    const stopped = slot.worker;
    start(slot);
    void stopped.terminate();
    for (const [otherId, other] of slot.pending) {
      // Time spent waiting behind the stopped call was not theirs: each gets its deadline anew once the
      // replacement is ready (starting a worker is not their time either).
      settle(other);
      other.timer = undefined;
      slot.worker.postMessage({ ...other.body, id: otherId });
    }
  };

  const call = <A>(body: CallBody, only?: Slot): Promise<A> => {
    if (closing) return Promise.reject(new VerificationError({ message: "the verifier is closed" }));
    if (broken) return Promise.reject(broken);
    let slot = only ?? (slots[0] as Slot);
    if (only === undefined)
      for (const candidate of slots) if (candidate.pending.size < slot.pending.size) slot = candidate;
    if (only === undefined && slot.pending.size >= maxPending)
      return Promise.reject(
        new VerifierBusyError({
          message: `every verification worker has ${maxPending} calls waiting; try again shortly`,
          pending: slot.pending.size * slots.length,
        }),
      );
    const id = nextId++;
    return new Promise<A>((resolve, reject) => {
      const pending: Pending = { body, resolve: resolve as (value: unknown) => void, reject };
      const timeoutMs = options.callTimeoutMs;
      // A worker still starting sets the deadline when it is ready: its start-up is not the call's time.
      if (timeoutMs !== undefined && slot.ready)
        pending.timer = setTimeout(() => expire(slot, id, timeoutMs), timeoutMs);
      slot.pending.set(id, pending);
      slot.worker.postMessage({ ...body, id });
    });
  };

  return {
    verify: (request) => call<VerificationResult>({ op: "verify", request }),
    verifyPrepared: (request, options) => call<PreparedAnswer>({ op: "verifyPrepared", request, options }),
    runLayer: (layer, text, context, sources) =>
      call<LayerResult>({
        op: "runLayer",
        layer,
        text,
        ...(context === undefined ? {} : { context }),
        ...(sources === undefined ? {} : { sources }),
      }),
    assessRisk: (text, context) =>
      call<RiskLevel>({ op: "assessRisk", text, ...(context === undefined ? {} : { context }) }),
    validateNumbersJson: (input) => call<string>({ op: "validateNumbersJson", input }),
    updateCalibration: async (models) => {
      const invalid = invalidPlattModel(models);
      if (invalid) throw invalid;
      workerData = { ...workerData, calibration: { ...workerData.calibration, ...models } };
      await Promise.all(
        slots.map((slot) => {
          const worker = slot.worker;
          return call<void>({ op: "updateCalibration", models }, slot).catch((error: unknown) => {
            // A worker that stopped meanwhile was replaced by one built from the new calibration; any other
            // refusal (a model that is not finite, a closed pool) is the caller's to see.
            if (slot.worker === worker || closing) throw error;
          });
        }),
      );
    },
    subscribe: async (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    close: async () => {
      if (closing) return;
      closing = true;
      await Promise.all(
        slots.map(async (slot) => {
          failAll(slot, new VerificationError({ message: "the verifier is closed" }));
          await slot.worker.terminate();
        }),
      );
    },
  };
};
