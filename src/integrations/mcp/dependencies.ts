import { type BuiltVerifier, buildVerifier, type VerifierFlags } from "../../assembly/build-verifier.js";
import { requestUserFactMemory } from "../../assembly/fact-memory.js";
import { lazyVerifier } from "../../assembly/lazy-verifier.js";
import { openMemoryGate } from "../../assembly/memory-gate.js";
import {
  CalculationRecorder,
  type ValidateInput,
  type ValidationResult,
  validateNumbers,
} from "../../checks/numbers/index.js";
import type { Verifier } from "../../facade/create-verifier.js";
import { verifyPrepared } from "../../facade/prepared-answer.js";
import { type VerificationWarmUpReport, warmUpOwnVerifier } from "../../facade/warm-up-verifier.js";
import { createWorkerPoolVerifier, type WorkerPoolVerifier } from "../../facade/worker-pool/index.js";
import { defaultWarmUp, type MemoryGateClient, type WarmUpReport } from "../../memory/index.js";
import { errorMessage } from "../../model/error-message.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import type { McpDependencies } from "./tools.js";

export interface McpDependencyOptions {
  /** The memory store: a PGlite directory, `memory://` (default) or a `postgres://` URL. */
  readonly memoryDatabase?: string;
  /**
   * An SQL client the caller already holds for the memory store (`veracity mcp --http` shares the one its API
   * keys are read from: one embedded database cannot be opened twice). It wins over `memoryDatabase` and is
   * left open by `close`.
   */
  readonly memorySql?: SqlClientService;
  /** The repository whose commits and ADRs citations and memories may point to (default: cwd). */
  readonly repositoryDir?: string;
  /** The only user the memory tools act for (see `McpDependencies.userId`). */
  readonly userId?: string;
  /**
   * The verifier's configuration, as for `veracity check`: settings file, model, calibration, evidence store.
   * Its `repository` defaults to `repositoryDir`.
   */
  readonly verifier?: VerifierFlags;
  /** `VERACITY_*` variables (settings, model, issue tracker); default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Worker threads the tools verify in (default 0: in this thread). With workers, calls from several clients
   * run side by side on the machine's cores, and a call of 1,000,000 characters or more runs in a worker of its
   * own, so it does not hold the small ones (`createWorkerPoolVerifier`). A verifier a worker cannot build (a
   * model, an evidence store) stays in this thread whatever this says.
   */
  readonly verifyWorkers?: number;
  /**
   * With `verifyWorkers`: the longest a tool call may take in the pool, waiting included (default
   * `defaultMcpCallTimeoutMs`, 30 s, as a server's request deadline). Past it the call answers a
   * `VerificationTimeoutError`, never a pass, and its worker is stopped and replaced, which is the only way to
   * stop synchronous work: a pathological input costs one worker's restart, not a worker held for good. In this
   * thread a call cannot be stopped mid-check; the verification settings' time limits apply there.
   */
  readonly callTimeoutMs?: number;
}

/**
 * How long a tool call may take in the worker pool by default: 30 s, a server's default request deadline
 * (`veracity serve --timeout-ms`), far above what a call within the tools' input limits takes.
 */
export const defaultMcpCallTimeoutMs = 30_000;

/** How long `warmUp` runs: each part stops at `maxMs`, and both at the first tool call. */
export interface McpWarmUpOptions {
  /** Most milliseconds for each part (default 3,000). */
  readonly maxMs?: number;
  /** Whether the memory gate warms up too, after the verification (default false: it opens the store). */
  readonly memory?: boolean;
}

/** What `warmUp` did: each part's report, and why it ended early if it did. */
export interface McpWarmUpReport {
  /**
   * The offline checks' warm-up: made-up answers verified in this thread, or in each worker (`workers`, how
   * many) when the tools verify in worker threads.
   */
  readonly verification?: VerificationWarmUpReport & { readonly workers?: number };
  /** The memory gate's (stored memories validated again, read only), when asked for. */
  readonly memory?: WarmUpReport;
  /** A tool call arrived first, or the verifier or the memory store could not be opened (its message). */
  readonly stoppedBy?: string;
}

/** The stop reason of a warm-up that a caller's first use of the verifier or the memory gate ended. */
export const stoppedByToolCall = "a tool call arrived";

/**
 * The assembled verifier (by default: grounding, numbers, and citations of the repository's commits and
 * ADRs) and a memory gate, each opened on first use, and `warmUp`, which opens them ahead of the first call
 * and runs their code on made-up work so the first calls are not a new process's slow ones.
 */
export const openMcpDependencies = (
  options: McpDependencyOptions = {},
): McpDependencies & {
  /** Never rejects: what ended it early is the report's `stoppedBy`. */
  readonly warmUp: (options?: McpWarmUpOptions) => Promise<McpWarmUpReport>;
  readonly close: () => Promise<void>;
} => {
  const env = options.env ?? process.env;
  const repositoryDir = options.repositoryDir ?? process.cwd();
  // Set once the callers' work starts: a warm-up under way stops before its next made-up check.
  const warming = new AbortController();
  const callerArrived = () => {
    if (!warming.signal.aborted) warming.abort(stoppedByToolCall);
  };
  let gate: Promise<MemoryGateClient> | undefined;
  const openGate = () => {
    gate ??= openMemoryGate(
      options.memorySql === undefined
        ? { database: options.memoryDatabase ?? "memory://", repositoryDir }
        : { sql: options.memorySql, repositoryDir },
      env,
    );
    return gate;
  };
  // With a model, fact decomposition reads the facts of the user a call acts for from this memory store.
  const facts = requestUserFactMemory({
    search: async (userId, query, limit) => (await openGate()).search(userId, query, limit),
  });
  let building: Promise<BuiltVerifier> | undefined;
  const built = () => {
    building ??= buildVerifier(
      { repository: repositoryDir, factMemory: facts, ...options.verifier },
      {},
      env,
    );
    return building;
  };
  const workers = options.verifyWorkers ?? 0;
  // The verifier the tools call: the built one, or a worker pool built to verify exactly as it does.
  let pool: WorkerPoolVerifier | undefined;
  let choosing: Promise<Verifier> | undefined;
  const chosen = () => {
    choosing ??= built().then((assembled) => {
      if (workers === 0 || assembled.poolConfig === undefined) return assembled;
      pool = createWorkerPoolVerifier({
        workers,
        ...assembled.poolConfig,
        callTimeoutMs: options.callTimeoutMs ?? defaultMcpCallTimeoutMs,
      });
      const workersOf = pool;
      return {
        ...workersOf,
        close: async () => {
          await workersOf.close();
          await assembled.close();
        },
      };
    });
    return choosing;
  };
  const lazy = lazyVerifier(chosen);
  /** `run`, once it has ended a warm-up under way: what the tools call. */
  const byCaller =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      callerArrived();
      return run(...args);
    };
  const verifier: Verifier & Pick<typeof lazy, "verifyFor"> = {
    verify: byCaller(lazy.verify),
    verifyFor: byCaller(lazy.verifyFor),
    verifyPrepared: byCaller((request, prepareOptions) => verifyPrepared(lazy, request, prepareOptions)),
    runLayer: byCaller(lazy.runLayer),
    assessRisk: byCaller(lazy.assessRisk),
    subscribe: lazy.subscribe,
    close: lazy.close,
  };
  let warmingUp: Promise<McpWarmUpReport> | undefined;
  const warmUp = async (warmUpOptions: McpWarmUpOptions = {}): Promise<McpWarmUpReport> => {
    const maxMs = Math.max(0, warmUpOptions.maxMs ?? defaultWarmUp.maxMs);
    const signal = warming.signal;
    // The report, with why it ended when a tool call or `close` ended it.
    const reported = (report: McpWarmUpReport): McpWarmUpReport =>
      signal.aborted ? { ...report, stoppedBy: String(signal.reason) } : report;
    if (signal.aborted) return reported({});
    let assembled: BuiltVerifier;
    try {
      assembled = await built();
    } catch (error) {
      // The tools' calls meet the same error: the build is kept, failed, and rejects each of them.
      return { stoppedBy: errorMessage(error) };
    }
    if (signal.aborted) return reported({});
    // The pool's workers each warm a verifier of their own; without one, a verifier of the warm-up's own with
    // the built verifier's settings and calibration.
    await chosen().catch(() => undefined);
    const verification =
      pool === undefined
        ? await warmUpOwnVerifier(
            { settings: assembled.settings, calibration: assembled.calibrationModels },
            { maxMs, signal },
          )
        : await pool.warmUp({ maxMs, signal });
    if (warmUpOptions.memory !== true || signal.aborted) return reported({ verification });
    let memory: MemoryGateClient;
    try {
      memory = await openGate();
    } catch (error) {
      return { verification, stoppedBy: errorMessage(error) };
    }
    return reported({ verification, memory: await memory.warmUp({ maxMs, signal }) });
  };
  return {
    verifier,
    // Over stdio one server acts for one client: its calculations are its own. Over HTTP with keys each user
    // gets a recorder of their own (http.ts); this one serves stdio and the unauthenticated mode.
    calculations: new CalculationRecorder(),
    ...(options.userId === undefined ? {} : { userId: options.userId }),
    memory: () => {
      callerArrived();
      return openGate();
    },
    // Any tool call ends the warm-up, `calculate` too (listing the tools does not: every client lists them
    // right after its handshake).
    toolCalled: callerArrived,
    // With workers, `validate_numbers` runs in the pool too (a call's text and evidence can be long).
    ...(workers === 0
      ? {}
      : {
          validateNumbers: byCaller(async (input: ValidateInput): Promise<ValidationResult> => {
            // A verifier that cannot be built fails the verifying tools, not this one: it then runs here.
            await chosen().catch(() => undefined);
            return pool === undefined
              ? validateNumbers(input)
              : (JSON.parse(await pool.validateNumbersJson(input)) as ValidationResult);
          }),
        }),
    // Never rejects: a warm-up is nobody's request, and a caller that starts it without waiting for it (stdio)
    // must not meet an unhandled rejection. What ended it is in the report.
    warmUp: (warmUpOptions) => {
      warmingUp = warmUp(warmUpOptions).catch((error: unknown) => ({ stoppedBy: errorMessage(error) }));
      return warmingUp;
    },
    close: async () => {
      // A warm-up under way ends before what it uses is closed.
      if (!warming.signal.aborted) warming.abort("the server is closing");
      await warmingUp?.catch(() => undefined);
      // What was chosen, whether a call or the warm-up chose it (the warm-up builds without the tools' verifier,
      // and a pool it started would otherwise keep its threads, and the process, alive). Once: the tools'
      // verifier holds the same one.
      if (choosing !== undefined) await (await choosing.catch(() => undefined))?.close();
      if (gate !== undefined) await (await gate.catch(() => undefined))?.close();
    },
  };
};
