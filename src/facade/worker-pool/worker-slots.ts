/**
 * The pool's worker threads, one per slot: starting a worker, sending it calls, failing its calls when it dies
 * and starting its replacement, stopping it when a call overruns its deadline. Which slot a call goes to is the
 * pool's choice (create-worker-pool-verifier.ts); what happens once a slot is chosen is the same for every slot,
 * whichever lane it serves.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";
import { VerificationError, VerificationTimeoutError } from "../../model/errors.js";
import type { VerificationEvent } from "../../verification/events.js";
import { compiledUrlOf } from "./current-build.js";
import { type KeptSourcesRecord, keptSourcesRecord, type WorkerKeptLimits } from "./kept-sources.js";
import { type CallBody, deserializeError, type WorkerReply, type WorkerVerifierConfig } from "./messages.js";
import { currentQueueOwner } from "./queue-owner.js";

/** A worker that dies this many times in a row before it is ready stops the pool (a broken build, say). */
const maxFailedStarts = 3;

// The build runs the built worker, one bundled file (scripts/bundle-worker.mjs). From sources (tests, tsx) the
// worker is the build's copy when the build is current (current-build.ts), else the TypeScript worker loaded
// through tsx. In the bundled command (dist/cli, see scripts/bundle-cli.mjs) this code sits in dist/cli, and the
// worker is the one in dist/facade/worker-pool.
const defaultWorker = (): URL => {
  if (import.meta.url.endsWith(".ts")) return compiledUrlOf(new URL("./verify-worker.ts", import.meta.url));
  const beside = new URL("./verify-worker.js", import.meta.url);
  return existsSync(fileURLToPath(beside))
    ? beside
    : new URL("../facade/worker-pool/verify-worker.js", import.meta.url);
};

/** The worker named by the caller, loaded as given, or the default one. */
const workerEntry = (given?: URL): { readonly url: URL; readonly sourceEntry?: string } => {
  const url = given ?? defaultWorker();
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

export type { CallBody } from "./messages.js";

interface Pending {
  readonly body: CallBody;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  timer?: NodeJS.Timeout | undefined;
}

/** A worker thread and its calls not yet answered (waiting behind others or running). */
export interface Slot {
  worker: Worker;
  /** The heap limits its worker starts with (a replacement gets the same). */
  readonly resourceLimits: Readonly<ResourceLimits> | undefined;
  readonly pending: Map<number, Pending>;
  ready: boolean;
  /** The large sources its worker keeps between calls; emptied when the worker is replaced. */
  readonly kept: KeptSourcesRecord;
}

export interface WorkerSlotsOptions {
  /** The worker's module; default `verify-worker` next to this file. */
  readonly workerUrl?: URL | undefined;
  /** Longest a call may take once its worker is ready, waiting included (see `WorkerPoolOptions`). */
  readonly callTimeoutMs?: number | undefined;
  /** What each worker's verifier is built from, until `setConfig` replaces it. */
  readonly config: WorkerVerifierConfig;
  /** Receives each event a worker's verifier emits. */
  readonly onEvent: (event: VerificationEvent) => void;
}

export interface WorkerSlots {
  /**
   * A new slot, its worker starting with the given heap limits (V8's defaults when none) and keeping the large
   * sources `kept` allows (`defaultKeptSourcesLimits`' small-call bounds when not given); calls may be sent to it
   * at once (they wait until it is ready).
   */
  readonly open: (resourceLimits?: Readonly<ResourceLimits>, kept?: WorkerKeptLimits) => Slot;
  /**
   * Sends a call to the slot's worker. Settles with the worker's answer or its typed error; a VerificationError
   * if the worker dies first, a VerificationTimeoutError past the deadline.
   */
  readonly send: <A>(slot: Slot, body: CallBody) => Promise<A>;
  /** Why no call can be sent (the slots are closed, or workers keep failing to start); undefined otherwise. */
  readonly refusal: () => Error | undefined;
  /** Every slot opened so far. */
  readonly all: () => readonly Slot[];
  readonly config: () => WorkerVerifierConfig;
  /** What workers started from now on are built from: a replacement, or a slot opened later. */
  readonly setConfig: (config: WorkerVerifierConfig) => void;
  /** Fails every call still unanswered and terminates every worker; none is replaced afterwards. */
  readonly close: () => Promise<void>;
}

export const createWorkerSlots = (options: WorkerSlotsOptions): WorkerSlots => {
  const entry = workerEntry(options.workerUrl);
  const timeoutMs = options.callTimeoutMs;
  // Replaced (never mutated) when the calibration is updated: a worker started later is built with the new one.
  let config = options.config;
  const opened: Slot[] = [];
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
        if (timeoutMs !== undefined)
          for (const [id, pending] of slot.pending)
            pending.timer ??= setTimeout(() => expire(slot, id, timeoutMs), timeoutMs);
        return;
      }
      case "event":
        options.onEvent(reply.event);
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
  const newWorker = (resourceLimits: Readonly<ResourceLimits> | undefined): Worker => {
    const settings = {
      workerData: entry.sourceEntry === undefined ? config : { ...config, sourceEntry: entry.sourceEntry },
      ...(resourceLimits === undefined ? {} : { resourceLimits }),
    };
    try {
      return new Worker(entry.url, { ...settings, execArgv });
    } catch (error) {
      if (!isRefusedOptions(error)) throw error;
      execArgv = withoutRefusedOptions(execArgv, error.message);
      return new Worker(entry.url, { ...settings, execArgv });
    }
  };

  // Every message to a worker goes through here: large sources it keeps are named, not copied.
  const post = (slot: Slot, body: CallBody, id: number) =>
    slot.worker.postMessage({ ...slot.kept.outgoing(body), id });

  const start = (slot: Slot) => {
    const worker = newWorker(slot.resourceLimits);
    slot.worker = worker;
    slot.ready = false;
    slot.kept.clear();
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
      post(slot, other.body, otherId);
    }
  };

  const refusal = (): Error | undefined =>
    closing ? new VerificationError({ message: "the verifier is closed" }) : broken;

  return {
    open: (resourceLimits, kept) => {
      const slot = {
        pending: new Map<number, Pending>(),
        ready: false,
        resourceLimits,
        kept: keptSourcesRecord(kept),
      } as Slot;
      start(slot);
      opened.push(slot);
      return slot;
    },
    send: <A>(slot: Slot, body: CallBody) => {
      const refused = refusal();
      if (refused) return Promise.reject(refused);
      const id = nextId++;
      // Whose call it is, read where the pool was called: the worker takes the owners' calls in turn.
      const owned = { ...body, owner: currentQueueOwner() } as CallBody;
      return new Promise<A>((resolve, reject) => {
        const pending: Pending = { body: owned, resolve: resolve as (value: unknown) => void, reject };
        // A worker still starting sets the deadline when it is ready: its start-up is not the call's time.
        if (timeoutMs !== undefined && slot.ready)
          pending.timer = setTimeout(() => expire(slot, id, timeoutMs), timeoutMs);
        slot.pending.set(id, pending);
        post(slot, owned, id);
      });
    },
    refusal,
    all: () => opened,
    config: () => config,
    setConfig: (next) => {
      config = next;
    },
    close: async () => {
      if (closing) return;
      closing = true;
      await Promise.all(
        opened.map(async (slot) => {
          failAll(slot, new VerificationError({ message: "the verifier is closed" }));
          await slot.worker.terminate();
        }),
      );
    },
  };
};
