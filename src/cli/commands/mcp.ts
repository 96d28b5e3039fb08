import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Effect } from "effect";
import { defaultVerifyWorkers } from "../../facade/worker-pool/index.js";
import {
  defaultMcpCallTimeoutMs,
  type McpWarmUpReport,
  openMcpDependencies,
} from "../../integrations/mcp/dependencies.js";
import { type McpHttpOptions, startMcpHttpServer } from "../../integrations/mcp/http.js";
import { serveMcpStdio } from "../../integrations/mcp/stdio.js";
import { defaultWarmUp } from "../../memory/index.js";
import { defaultConnectionLimits } from "../../model/connection-limits.js";
import { maxVerifyWorkers } from "../../server/config.js";
import { keyHolder, migrateServerTables } from "../../server/keys/api-keys.js";
import { runEffect } from "../../server/run-effect.js";
import { isPostgresUrl, openSqlClient } from "../../storage/open.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import { integerBetween, nonNegativeInteger, parseCommandArgs, positiveInteger } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";

const usage = `veracity mcp [--user <id>] [--memory <db>] [--repository <dir>] [--warm-up-ms <ms>] [--verify-workers <n>]
                    [--timeout-ms <ms>]
veracity mcp --http [--db <target>] [--host 127.0.0.1] [--port 3333] [--allowed-host <host>]...
                    [--allowed-origin <origin>]... [--repository <dir>] [--max-connections <n>]
                    [--max-connections-per-address <n>]
veracity mcp --http --insecure-no-auth --user <id> [...]

Serves the Veracity tools to MCP clients: verify, check_grounding, validate_numbers, calculate,
verify_citations, ingest_memory, search_memory. There are no review tools: approving memories is a person's job,
in the review UI or API of 'veracity serve'.
  (default)          stdio: the client starts this command and talks over stdin/stdout
  --user <id>        stdio: the only user ingest_memory/search_memory act for (a call naming another is refused)
  --memory <db>      stdio: memory store: PGlite directory, memory:// (default) or postgres:// URL
  --http             streamable HTTP at http://<host>:<port>/mcp (stateless, JSON responses). Every request
                     needs 'Authorization: Bearer <key>', a key minted with 'veracity serve keys create' on the
                     same database; the memory tools act for the key's user, and an agent key's memories get an
                     agent's trust (reviewed, whatever source they name)
  --db <target>      --http: the database holding the API keys and the memories, as 'veracity serve --db'
                     (DATABASE_URL, VERACITY_DB; default .veracity/data). An embedded directory is opened by one
                     process at a time: stop 'veracity serve' first, or share a postgres:// database
  --host <address>   default 127.0.0.1
  --port <n>         default 3333
  --allowed-host <host>
                     a Host header to answer (repeatable), e.g. mcp.example.com behind a proxy; default only
                     127.0.0.1, localhost and [::1] (and --host) with the port: others get 403 (DNS rebinding)
  --allowed-origin <origin>
                     a browser Origin allowed to call (repeatable); default only this server's own origins.
                     Requests without an Origin (clients that are not browsers) are judged by Host and key
  --max-connections <n>
                     --http: open connections at once; one past it is closed as it arrives (default 10000)
  --max-connections-per-address <n>
                     --http: once half of --max-connections are open, a connection from a client address
                     (an IPv6 client's /64 network) already holding this many is closed as it arrives
                     (default 1000; behind a reverse proxy every connection is the proxy's)
  --insecure-no-auth serve --http without keys, for --user only: anyone who reaches the port acts for that
                     user, as an agent. Only on a machine nobody else uses
  --repository <dir> repository whose commits and ADRs citations may point to (default: cwd)
  --config <file>    configuration file, YAML or JSON (VERACITY_CONFIG), as for veracity check
  --verify-workers <n>
                     worker threads the tools verify in, so calls from several clients use every core and a
                     call of 1,000,000 characters or more does not hold the others (default: with --http, one
                     per core but one, at least two from two cores up; over stdio 0, this thread). A model or an
                     evidence store in the configuration keeps verification in this thread
  --timeout-ms <ms>  with verification workers, the longest a tool call may take: past it the call answers
                     a VerificationTimeoutError and its worker is replaced (default 30000)
  --warm-up-ms <ms>  verify made-up answers, then (with a database that outlives the process) validate stored
                     memories again, each for up to this many ms, so the first calls are not a new process's
                     slow ones: over stdio from the end of the client's handshake to its first tool call;
                     with --http before listening. 0 starts cold (default 3000)`;

/**
 * Whether the memory store outlives the process (a directory or a PostgreSQL database): only then can it hold
 * enough memories for the gate's first checks to be slow, and opening an in-memory store that no call may use
 * would cost memory for nothing.
 */
const persistentMemory = (database: string | undefined): boolean =>
  database !== undefined && database !== "memory://";

/** The warm-up's report as one line for stderr. */
const warmUpLine = (report: McpWarmUpReport): string => {
  const parts: string[] = [];
  if (report.verification !== undefined) {
    const { verifications, ms, workers } = report.verification;
    const where = workers === undefined ? "" : ` on ${workers} worker${workers === 1 ? "" : "s"}`;
    parts.push(`${verifications} verifications in ${ms} ms${where}`);
  }
  if (report.memory !== undefined)
    parts.push(`${report.memory.checks} memory checks in ${report.memory.elapsedMs} ms`);
  const stopped = report.stoppedBy === undefined ? "" : ` (stopped: ${report.stoppedBy})`;
  return `veracity mcp warmed up: ${parts.length === 0 ? "nothing" : parts.join(", ")}${stopped}\n`;
};

/** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
const untilStopped = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });

const options = {
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  memory: { type: "string" },
  db: { type: "string" },
  repository: { type: "string" },
  user: { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "allowed-origin": { type: "string", multiple: true },
  "insecure-no-auth": { type: "boolean" },
  config: { type: "string" },
  "warm-up-ms": { type: "string" },
  "verify-workers": { type: "string" },
  "timeout-ms": { type: "string" },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>["values"];

const httpOnlyFlags = ["host", "port", "db", "allowed-host", "allowed-origin", "insecure-no-auth"] as const;

/** Refuses flag combinations that would not do what they say; returns nothing when the line is coherent. */
const checkFlags = (values: Values): void => {
  if (values.http !== true) {
    const used = httpOnlyFlags.find((flag) => values[flag] !== undefined);
    if (used !== undefined) throw new UsageError(`--${used} needs --http`);
    return;
  }
  const insecure = values["insecure-no-auth"] === true;
  if (insecure && (values.user === undefined || values.user.trim() === ""))
    throw new UsageError("--insecure-no-auth needs --user <id>: the memory tools act for that one user");
  if (!insecure && values.user !== undefined)
    throw new UsageError(
      "--http takes the user from each request's API key; --user serves one fixed user and needs --insecure-no-auth",
    );
  if (!insecure && values.memory !== undefined)
    throw new UsageError("with --http the keys and memories share one database: name it with --db");
  for (const origin of values["allowed-origin"] ?? [])
    if (!/^https?:\/\/[^/\s]+$/i.test(origin))
      throw new UsageError(
        `--allowed-origin must be scheme://host[:port], e.g. http://localhost:3000 (got "${origin}")`,
      );
  for (const host of values["allowed-host"] ?? [])
    if (!/^[^/\s@]+$/.test(host))
      throw new UsageError(`--allowed-host must be a host name or host:port (got "${host}")`);
};

/** The key and memory database of `--http`: the flag, then the environment, then serve's own default. */
const keyDatabase = async (values: Values, io: CliIO): Promise<string> => {
  const named = values.db ?? io.env.DATABASE_URL ?? io.env.VERACITY_DB;
  if (named !== undefined && (isPostgresUrl(named) || named === "memory://")) return named;
  const directory = path.resolve(io.cwd, named ?? ".veracity/data");
  await mkdir(directory, { recursive: true });
  return directory;
};

/** Worker threads to verify in: the flag, else the server's default with --http, and none over stdio. */
const verifyWorkers = (values: Values): number =>
  nonNegativeInteger(
    values["verify-workers"],
    "--verify-workers",
    values.http === true ? defaultVerifyWorkers() : 0,
    maxVerifyWorkers,
  );

/** The deadline of a tool call in the worker pool: the flag (100 ms to 10 min, as `serve`'s), else the default. */
const callTimeoutMs = (values: Values): number =>
  integerBetween(values["timeout-ms"], "--timeout-ms", defaultMcpCallTimeoutMs, 100, 600_000);

/** The connection caps, from the flags or the defaults (read before anything is opened, so a bad value is refused first). */
const connectionCapsOf = (
  values: Values,
): Pick<McpHttpOptions, "maxConnections" | "maxConnectionsPerAddress"> => ({
  maxConnections: positiveInteger(
    values["max-connections"],
    "--max-connections",
    defaultConnectionLimits.maxConnections,
  ),
  maxConnectionsPerAddress: positiveInteger(
    values["max-connections-per-address"],
    "--max-connections-per-address",
    defaultConnectionLimits.maxConnectionsPerAddress,
  ),
});

const serveHttp = async (
  values: Values,
  io: CliIO,
  warmUpMs: number,
  workers: number,
  deadlineMs: number,
): Promise<void> => {
  const insecure = values["insecure-no-auth"] === true;
  const port = positiveInteger(values.port, "--port", 3333);
  const connectionCaps = connectionCapsOf(values);
  let sql: SqlClientService | undefined;
  if (!insecure) {
    const database = await keyDatabase(values, io);
    sql = await runEffect(openSqlClient(database));
  }
  try {
    if (sql !== undefined) await runEffect(migrateServerTables(sql));
    const dependencies = openMcpDependencies({
      repositoryDir: values.repository ?? io.cwd,
      ...(values.config === undefined ? {} : { verifier: { config: values.config, cwd: io.cwd } }),
      ...(sql === undefined ? {} : { memorySql: sql }),
      ...(values.memory === undefined ? {} : { memoryDatabase: values.memory }),
      ...(insecure && values.user !== undefined ? { userId: values.user } : {}),
      verifyWorkers: workers,
      callTimeoutMs: deadlineMs,
    });
    try {
      if (warmUpMs > 0) {
        const memory = sql !== undefined || persistentMemory(values.memory);
        io.stderr(warmUpLine(await dependencies.warmUp({ maxMs: warmUpMs, memory })));
      }
      const httpOptions: McpHttpOptions = {
        host: values.host ?? "127.0.0.1",
        port,
        ...(sql === undefined ? { insecureNoAuthentication: true } : { authenticate: keyHolder(sql) }),
        ...(values["allowed-host"] === undefined ? {} : { allowedHosts: values["allowed-host"] }),
        ...(values["allowed-origin"] === undefined ? {} : { allowedOrigins: values["allowed-origin"] }),
        ...connectionCaps,
      };
      const server = await startMcpHttpServer(dependencies, httpOptions);
      if (insecure)
        io.stderr(`warning: --insecure-no-auth: anyone who reaches ${server.url} acts for ${values.user}\n`);
      io.stderr(`veracity mcp listening on ${server.url}\n`);
      await untilStopped();
      await server.close();
    } finally {
      await dependencies.close();
    }
  } finally {
    const opened = sql;
    if (opened !== undefined) await runEffect(Effect.ignore(opened.close));
  }
};

export const mcpCommand: CliCommand = {
  name: "mcp",
  summary: "serve the verification tools to MCP clients (stdio or streamable HTTP)",
  usage,
  examples: [
    "veracity mcp",
    "veracity serve keys create --user alice --agent   # then: veracity mcp --http --port 3333",
  ],
  run: async (argv, io) => {
    const { values, positionals } = parseCommandArgs(argv, options);
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    checkFlags(values);
    const warmUpMs = nonNegativeInteger(values["warm-up-ms"], "--warm-up-ms", defaultWarmUp.maxMs, 600_000);
    const workers = verifyWorkers(values);
    const deadlineMs = callTimeoutMs(values);
    if (values.http === true) {
      await serveHttp(values, io, warmUpMs, workers, deadlineMs);
      return ExitCode.ok;
    }
    const dependencies = openMcpDependencies({
      ...(values.memory === undefined ? {} : { memoryDatabase: values.memory }),
      repositoryDir: values.repository ?? io.cwd,
      ...(values.config === undefined ? {} : { verifier: { config: values.config, cwd: io.cwd } }),
      ...(values.user === undefined ? {} : { userId: values.user }),
      verifyWorkers: workers,
      callTimeoutMs: deadlineMs,
    });
    // The warm-up starts once the client has finished its handshake (so that is not slowed), and runs in this
    // thread until its bound or the first tool call, which waits for one made-up check at most. Its report goes
    // to stderr: stdout carries the protocol.
    // Once: a client that sent its `initialized` notification again would otherwise start a second one.
    let warming = false;
    const warmUp = () => {
      if (warming) return;
      warming = true;
      void dependencies
        .warmUp({ maxMs: warmUpMs, memory: persistentMemory(values.memory) })
        .then((report) => io.stderr(warmUpLine(report)));
    };
    try {
      await serveMcpStdio(
        dependencies,
        process.stdin,
        process.stdout,
        warmUpMs > 0 ? { onInitialized: warmUp } : {},
      );
    } finally {
      await dependencies.close();
    }
    return ExitCode.ok;
  },
};
