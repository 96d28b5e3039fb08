import { unlink, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { Effect } from "effect";
import { type Logger, pino } from "pino";
import { type BuiltVerifier, buildVerifier } from "../assembly/build-verifier.js";
import { requestUserFactMemory } from "../assembly/fact-memory.js";
import { openMemoryGate } from "../assembly/memory-gate.js";
import { makeAuditLog } from "../audit/audit-log.js";
import type { CalibrationModels } from "../calibration/calibrator.js";
import { makeCalibrationOutcomeStore } from "../calibration/outcome-store.js";
import { makeCalibrationStore } from "../calibration/store.js";
import { createVerifier, type Verifier } from "../facade/create-verifier.js";
import { warmUpOwnVerifier } from "../facade/warm-up-verifier.js";
import {
  createWorkerPoolVerifier,
  defaultVerifyWorkers,
  type PoolWarmUpReport,
  type WorkerPoolVerifier,
} from "../facade/worker-pool/index.js";
import { defaultWarmUp } from "../memory/gate/warm-up.js";
import { makeCacheStatsRecorder, makeModelUsageRecorder, metricsSubscriber } from "../metrics/record.js";
import { makeVeracityMetrics } from "../metrics/registry.js";
import { sumCacheStats } from "../model/cache-stats.js";
import { connectionCheckingOptions, limitConnections, listenBacklog } from "../model/connection-limits.js";
import { serverUrlFileName } from "../storage/directory-lock.js";
import { openSqlClient } from "../storage/open.js";
import { createServerApp } from "./app.js";
import { defaultServerLimits, type ServerLimits } from "./deps.js";
import { makeConnectionMetrics } from "./http-metrics.js";
import { type ApiKeyKind, createApiKey, migrateServerTables } from "./keys/api-keys.js";
import { defaultCalibrationUpdateIntervalMs, loadSavedRefit, startRecalibration } from "./recalibration.js";
import { runEffect } from "./run-effect.js";
import { makeSourceStore } from "./sources/source-store.js";

export interface ServerOptions {
  /** 0 picks a free port. Default 8080. */
  readonly port?: number;
  /** Default 127.0.0.1: reachable only from this machine unless you say otherwise. */
  readonly host?: string;
  /** A PGlite directory, `memory://`, or a `postgres://` URL. Default `.veracity/data`. */
  readonly database?: string;
  /** PostgreSQL schema holding Veracity's tables (default: the connection's search path). */
  readonly databaseSchema?: string;
  /** An evidence store for the citations layer (PGlite directory or postgres:// URL). */
  readonly evidence?: string;
  /** A model for the model-backed layers of `/v1/verify` (e.g. `openai:gpt-4o-mini`). */
  readonly model?: string;
  readonly calibration?: string;
  /**
   * How often the calibration of the model-backed layers is refitted from reviewed outcomes
   * (`POST /v1/calibration/outcomes`); 0 refits only on `POST /v1/calibration/refit`. Default 24 h.
   */
  readonly calibrationUpdateIntervalMs?: number;
  /**
   * The configuration file (YAML or JSON, `VeracityConfigFile`) whose verification settings `/v1/verify` uses,
   * as `veracity check --config`; `VERACITY_CONFIG` otherwise.
   */
  readonly config?: string;
  readonly limits?: Partial<ServerLimits>;
  readonly logger?: Logger;
  readonly repositoryDir?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly version?: string;
  /**
   * Worker threads that run `/v1/check` and the playground's offline layers, so they use the other cores and
   * never block the event loop that serves HTTP and the stores. 0 runs them in the server's own thread.
   * Default: one per core but one, at most 4, and two on two cores (`defaultVerifyWorkers`).
   */
  readonly verifyWorkers?: number;
  /**
   * A check carrying this many characters or more (answer, context, sources) runs in a worker thread of its own,
   * started on the first such check, so the seconds a 10 MB source takes never delay the small checks queued in
   * the other workers. 0 turns this off. Default 1,000,000 (`WorkerPoolOptions.largeCallChars`). Without
   * verification workers (`verifyWorkers: 0`) every check runs in the server's own thread and this does nothing.
   */
  readonly largeRequestChars?: number;
  /**
   * Before listening, the server warms up, each part for up to this many milliseconds, so the first requests
   * served are not a new process's slow ones (V8 compiles code for speed only after it has run many times): each
   * verification worker verifies made-up answers (at most 400; `warmUpVerifier`), then the memory gate validates
   * stored memories again (read only, at most 600). Neither writes anything or counts in the metrics. 0 listens
   * at once. Default 3,000 (`defaultWarmUp`).
   */
  readonly warmUpMs?: number;
  /** Replaces the verifier of `/v1/check` and the playground (tests inject slow or failing fakes). */
  readonly checker?: Verifier;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes the stores. */
  readonly close: (graceMs?: number) => Promise<void>;
  /** Mints an API key for a user on this server's database (what `veracity serve keys create` does). */
  readonly createApiKey: (userId: string, kind?: ApiKeyKind) => Promise<string>;
}

/** The verifier without its in-thread `verifyFor`, so a pool's `verify` is the one every route uses. */
const withoutVerifyFor = <V extends object>(verifier: V): Omit<V, "verifyFor"> => {
  const { verifyFor: _inThread, ...rest } = verifier as V & { verifyFor?: unknown };
  return rest;
};

/**
 * The offline checks' warm-up: each worker of the pool, or without one a verifier of its own in this thread
 * (built as the checker is, but with no subscriber: a made-up verification is counted by no metric).
 */
const warmUpChecks = async (
  pool: WorkerPoolVerifier | undefined,
  built: Pick<BuiltVerifier, "settings" | "calibrationModels">,
  maxMs: number,
): Promise<PoolWarmUpReport> => {
  if (pool !== undefined) return pool.warmUp({ maxMs });
  return {
    workers: 0,
    ...(await warmUpOwnVerifier(
      { settings: built.settings, calibration: built.calibrationModels },
      { maxMs },
    )),
  };
};

/** Opens the stores, builds the app and listens. `close` undoes all of it in reverse order. */
export const startServer = async (options: ServerOptions = {}): Promise<RunningServer> => {
  const env = options.env ?? process.env;
  const logger =
    options.logger ?? pino({ base: { service: "veracity" }, redact: ["authorization", "cookie", "key"] });
  const database = options.database ?? ".veracity/data";
  const sql = await runEffect(
    openSqlClient(database, options.databaseSchema === undefined ? {} : { schema: options.databaseSchema }),
  );
  const closers: (() => Promise<void>)[] = [() => runEffect(Effect.ignore(sql.close))];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse())
      await close().catch((error) => logger.error({ error: String(error) }, "close failed"));
  };
  try {
    await runEffect(migrateServerTables(sql));
    const memory = await openMemoryGate(
      { sql, ...(options.repositoryDir === undefined ? {} : { repositoryDir: options.repositoryDir }) },
      env,
    );
    closers.push(memory.close);
    const limits = { ...defaultServerLimits, ...options.limits };
    const built = await buildVerifier(
      {
        ...(options.evidence === undefined ? {} : { evidence: options.evidence }),
        ...(options.repositoryDir === undefined ? {} : { repository: options.repositoryDir }),
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(options.calibration === undefined ? {} : { calibration: options.calibration }),
        ...(options.config === undefined ? {} : { config: options.config }),
        // Fact decomposition reads the facts of the user each verification runs for, from this server's store.
        factMemory: requestUserFactMemory(memory),
      },
      {},
      env,
    );
    closers.push(built.close);
    const verifyWorkers = options.verifyWorkers ?? defaultVerifyWorkers();
    // The pool stops a call at the request deadline by terminating its worker, so a pathological input costs
    // one worker's restart, not the server's event loop.
    const pool =
      options.checker === undefined && verifyWorkers > 0
        ? createWorkerPoolVerifier({
            workers: verifyWorkers,
            // The settings and calibration in force, so `/v1/check` in a worker behaves as the same request
            // checked in this thread (or by `veracity check`) with the same configuration; with a repository,
            // its citations too, for `/v1/verify` (`built.poolConfig`).
            ...(built.poolConfig ?? { settings: built.settings, calibration: built.calibrationModels }),
            callTimeoutMs: limits.requestTimeoutMs,
            ...(options.largeRequestChars === undefined ? {} : { largeCallChars: options.largeRequestChars }),
          })
        : undefined;
    // `/v1/check` runs the offline evidence layers only, in the pool whatever else `/v1/verify` runs.
    const checker =
      options.checker ??
      pool?.evidenceLayersOnly ??
      createVerifier({ settings: built.settings, calibration: built.calibrationModels });
    closers.push(checker.close);
    // `/v1/verify` runs in the pool too unless it needs what only this thread has: a model or an evidence store
    // (`poolConfig` is then absent). A repository's citations are plain data every worker builds its layer from.
    // The pool has no model, so no fact memory to read per user.
    const verifier =
      pool !== undefined && built.poolConfig !== undefined
        ? { ...withoutVerifyFor(built), ...pool, close: built.close }
        : built;
    const metrics = makeVeracityMetrics();
    const unsubscribe = await Promise.all(
      // One subscription per event source: `/v1/verify` may run on the checker's pool.
      (verifier.subscribe === checker.subscribe ? [checker] : [verifier, checker]).map((each) =>
        each.subscribe(metricsSubscriber(metrics)),
      ),
    );
    closers.push(async () => {
      for (const stop of unsubscribe) stop();
    });
    const auditLog = await runEffect(makeAuditLog(sql));
    // Refits from reviewed outcomes reach every verifier: this thread's and each worker's.
    const applyCalibration = async (models: CalibrationModels) => {
      await built.updateCalibration(models);
      if (pool !== undefined) await pool.updateCalibration(models);
    };
    const calibrationStore = await runEffect(makeCalibrationStore(sql));
    const calibrationOutcomes = await runEffect(makeCalibrationOutcomeStore(sql));
    const sources = await runEffect(makeSourceStore(sql));
    // A calibration file given at start wins; without one, the newest refit saved by any earlier run applies.
    const saved =
      Object.keys(built.calibrationModels).length === 0 ? await loadSavedRefit(calibrationStore) : undefined;
    if (saved !== undefined) await applyCalibration(saved);
    const recalibration = startRecalibration({
      outcomes: calibrationOutcomes,
      store: calibrationStore,
      apply: applyCalibration,
      audit: (entry) => runEffect(auditLog.append(entry)).then(() => undefined),
      logger,
      intervalMs: options.calibrationUpdateIntervalMs ?? defaultCalibrationUpdateIntervalMs,
      initial: saved ?? built.calibrationModels,
      // A saved refit covers the outcomes kept when it ran; those recorded after it and before this start
      // are fitted together with the next new one.
      ...(saved === undefined ? {} : { fittedThrough: await runEffect(calibrationOutcomes.newestId) }),
    });
    closers.push(recalibration.stop);
    // Before listening, the offline checks warm up and then the memory gate, each for at most `warmUpMs`. One after
    // the other: side by side at 1,000,000 memories, the gate's first 200 checks after them had a p99 of 5.8-11.6 ms
    // on an embedded store, against 4.2-5.3 ms after its warm-up alone, and on PostgreSQL the gate's warm-up, its
    // database server starved of the cores, ran 47 and 455 of its 600 checks in 3 s.
    const warmUpMs = options.warmUpMs ?? defaultWarmUp.maxMs;
    if (warmUpMs > 0) {
      if (options.checker === undefined)
        logger.info(await warmUpChecks(pool, built, warmUpMs), "verification warmed up");
      logger.info(await memory.warmUp({ maxMs: warmUpMs }), "memory gate warmed up");
    }
    // The model's calls, tokens and cost are cumulative in the LLM service; each scrape adds what is new.
    const modelUsage = verifier.modelUsage;
    const recordUsage = makeModelUsageRecorder(metrics);
    // The caches of every verifier that runs checks here: this thread's and the pool's workers', or, without a
    // pool, `/v1/check`'s own verifier (with a pool, the checker is the pool). A scrape is answered at once with what the last look
    // recorded and starts the next look, one at a time: a worker answers between two verifications, so waiting
    // for it would hold the scrape for as long as a 10 MB check runs.
    const recordCaches = makeCacheStatsRecorder(metrics);
    const cacheHolders = [...new Set<Verifier>([built, pool ?? checker])];
    let lookingAtCaches = false;
    const refreshCaches = () => {
      if (lookingAtCaches) return;
      lookingAtCaches = true;
      void Promise.all(cacheHolders.map(async (each) => (await each.cacheStats?.()) ?? []))
        .then((stats) => recordCaches(sumCacheStats([...stats, [sources.cacheStats()]])))
        .catch((error: unknown) => logger.warn({ error: String(error) }, "cache stats unavailable"))
        .finally(() => {
          lookingAtCaches = false;
        });
    };
    let accepting = true;
    const app = createServerApp({
      sql,
      memory,
      verifier,
      checker,
      ...(pool === undefined
        ? {}
        : { validateNumbersJson: pool.validateNumbersJson, readJsonOffThread: pool.readJsonOffThread }),
      logger,
      metricsRegistry: metrics.registry,
      veracityMetrics: metrics,
      refreshMetrics: async () => {
        refreshCaches();
        if (modelUsage !== undefined) recordUsage(await modelUsage());
      },
      auditLog,
      recalibration,
      calibrationOutcomes,
      sources,
      isAccepting: () => accepting,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.version === undefined ? {} : { version: options.version }),
    });
    const server = createAdaptorServer({
      fetch: app.fetch,
      hostname: options.host ?? "127.0.0.1",
      serverOptions: connectionCheckingOptions,
    }) as Server;
    server.keepAliveTimeout = 5_000;
    const { refused, refusedPerAddress } = makeConnectionMetrics(metrics.registry);
    limitConnections(server, limits, { refusedPerAddress: () => refusedPerAddress.inc() });
    server.on("drop", () => refused.inc());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(
        { port: options.port ?? 8080, host: options.host ?? "127.0.0.1", backlog: listenBacklog },
        () => resolve(),
      );
    });
    const address = server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    logger.info({ url, database: database.startsWith("postgres") ? "postgres" : database }, "listening");
    // An embedded store's directory says where its server answers, for the error another process gets.
    const urlFile =
      database === "memory://" || /^postgres(?:ql)?:\/\//i.test(database)
        ? undefined
        : join(database, serverUrlFileName);
    if (urlFile !== undefined) {
      await writeFile(urlFile, `${process.pid} ${url}\n`).catch(() => undefined);
      closers.push(() => unlink(urlFile).catch(() => undefined));
    }
    return {
      url,
      port: address.port,
      createApiKey: async (userId, kind = "reviewer") =>
        (await runEffect(createApiKey(sql, userId, "", kind))).key,
      // In-flight requests get as long as a request may take (the request deadline) before being cut.
      close: async (graceMs = limits.requestTimeoutMs) => {
        accepting = false;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const forced = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearTimeout(forced);
        await closeAll();
        logger.info("stopped");
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
};
