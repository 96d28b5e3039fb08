import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Effect } from "effect";
import { readServerConfigFile, resolveServerConfig, type ServerConfigFile } from "../../server/config.js";
import { createApiKey, migrateServerTables, revokeApiKeys } from "../../server/keys/api-keys.js";
import { runEffect } from "../../server/run-effect.js";
import { type RunningServer, startServer } from "../../server/start.js";
import { openSqlClient } from "../../storage/open.js";
import { parseCommandArgs } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";

const usage = `veracity serve [options]
veracity serve keys create --user <id> [--agent | --role agent|reviewer|admin] [--label <text>] [--db <target>]
veracity serve keys revoke --user <id> [--db <target>]

Runs the HTTP API (/v1), the review UI (/ui), /healthz, /readyz, /metrics and /openapi.json.

Options (flags win over the environment, the environment over the --config file):
  --port <n>              port (VERACITY_PORT; default 8080; 0 picks a free one)
  --host <address>        address to listen on (VERACITY_HOST; default 127.0.0.1)
  --db <target>           PGlite directory, memory:// or postgres:// URL (DATABASE_URL, VERACITY_DB;
                          default .veracity/data)
  --db-schema <name>      PostgreSQL schema for Veracity's tables (VERACITY_DB_SCHEMA)
  --config <file>         configuration file, YAML or JSON: a server: section, verification settings, model,
                          evidence... (VERACITY_CONFIG; schema in schemas/veracity.config.schema.json)
  --evidence <db>         evidence store for the citations layer (VERACITY_EVIDENCE)
  --repository <dir>      git repository /v1/verify checks cited commits and decision records against, and
                          the memory gate its memories' citations (the --config file's repository; default:
                          none for /v1/verify, no citations layer, and the current directory for the gate)
  --model <spec>          model for the model-backed layers of /v1/verify (VERACITY_MODEL)
  --calibration <file>    calibration models from 'veracity calibrate'
  --max-body-bytes <n>    largest request body (default 2097152)
  --max-body-bytes-in-flight <n>
                          request-body bytes held at once across all connections; a request past it is
                          answered 503 server-busy before its body is read (default 268435456, never below
                          --max-body-bytes)
  --max-body-bytes-in-flight-per-key <n>
                          request-body bytes one key's requests hold at once; a request past it is answered
                          429 key-busy before its body is read (default 67108864; never above the total)
  --max-requests-in-flight-per-key <n>
                          requests one key has in flight at once in this process; past it the key's
                          requests are answered 429 key-busy before their bodies are read (default 64)
  --max-connections <n>   open connections at once; one past it is closed as it arrives (default 10000)
  --max-connections-per-address <n>
                          once half of --max-connections are open, a connection from a client address (an
                          IPv6 client's /64 network) already holding this many is closed as it arrives
                          (default 1000; behind a reverse proxy every connection is the proxy's)
  --headers-timeout-ms <n>
                          longest a client may take to send a request's headers; past it the connection is
                          closed (default 10000)
  --timeout-ms <n>        longest a request may take (default 30000)
  --rate-limit <n>        requests per key per minute, shared by every instance (VERACITY_RATE_LIMIT; default 1200)
  --calibration-interval-ms <n>
                          how often to refit the model-backed layers' calibration from reviewed outcomes
                          (POST /v1/calibration/outcomes) (VERACITY_CALIBRATION_INTERVAL_MS; default 86400000;
                          0: only on POST /v1/calibration/refit)
  --verify-workers <n>    worker threads for /v1/check, the playground and, unless it runs a model or an
                          evidence store, /v1/verify (VERACITY_VERIFY_WORKERS; default one per core but one,
                          at most 4, two on two cores; 0 verifies in the server's own thread)
  --large-request-chars <n>
                          a check whose answer, context and sources reach this many characters runs in a worker
                          of its own, so smaller checks never wait behind it (VERACITY_LARGE_REQUEST_CHARS;
                          default 1000000; 0: every check goes to the same workers)
  --warm-up-ms <n>        before listening, verify made-up answers in each verification worker, then
                          validate stored memories again (read only), each for up to n ms, so the first
                          requests served are not a new process's slow ones (VERACITY_WARM_UP_MS; default
                          3000; 0: listen at once)

API keys are stored as SHA-256 hashes; 'keys create' prints the key once. Roles: agent (verify, ingest, search;
never review), reviewer (default: a person; also the review queue and UI), admin (also /v1/audit/verify). A key
made with --agent (--role agent) acts for the user, but its memories get an agent's trust whatever source they
name (user, documentation...): give agents such keys, so their claims are reviewed rather than stored on their
word. SIGINT/SIGTERM stop the server
gracefully: it stops accepting, finishes in-flight requests and closes the store.`;

const options = {
  port: { type: "string" },
  host: { type: "string" },
  db: { type: "string" },
  "db-schema": { type: "string" },
  config: { type: "string" },
  evidence: { type: "string" },
  repository: { type: "string" },
  model: { type: "string" },
  calibration: { type: "string" },
  "max-body-bytes": { type: "string" },
  "max-body-bytes-in-flight": { type: "string" },
  "max-body-bytes-in-flight-per-key": { type: "string" },
  "max-requests-in-flight-per-key": { type: "string" },
  "max-connections": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "headers-timeout-ms": { type: "string" },
  "timeout-ms": { type: "string" },
  "rate-limit": { type: "string" },
  "verify-workers": { type: "string" },
  "large-request-chars": { type: "string" },
  "warm-up-ms": { type: "string" },
  "calibration-interval-ms": { type: "string" },
  user: { type: "string" },
  label: { type: "string" },
  agent: { type: "boolean" },
  role: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>["values"];

const configOf = async (values: Values, io: CliIO) => {
  const configPath = values.config ?? io.env.VERACITY_CONFIG;
  const file: ServerConfigFile =
    configPath === undefined ? {} : await readServerConfigFile(path.resolve(io.cwd, configPath));
  const defined = <K extends string>(key: K, value: string | undefined) =>
    value === undefined ? {} : ({ [key]: value } as Record<K, string>);
  const resolved = resolveServerConfig(
    {
      ...defined("port", values.port),
      ...defined("host", values.host),
      ...defined("db", values.db),
      ...defined("dbSchema", values["db-schema"]),
      ...defined("evidence", values.evidence),
      ...defined("model", values.model),
      ...defined("calibration", values.calibration),
      ...defined("repository", values.repository),
      ...defined("maxBodyBytes", values["max-body-bytes"]),
      ...defined("maxBodyBytesInFlight", values["max-body-bytes-in-flight"]),
      ...defined("maxBodyBytesInFlightPerKey", values["max-body-bytes-in-flight-per-key"]),
      ...defined("maxRequestsInFlightPerKey", values["max-requests-in-flight-per-key"]),
      ...defined("maxConnections", values["max-connections"]),
      ...defined("maxConnectionsPerAddress", values["max-connections-per-address"]),
      ...defined("headersTimeoutMs", values["headers-timeout-ms"]),
      ...defined("timeoutMs", values["timeout-ms"]),
      ...defined("rateLimit", values["rate-limit"]),
      ...defined("verifyWorkers", values["verify-workers"]),
      ...defined("largeRequestChars", values["large-request-chars"]),
      ...defined("warmUpMs", values["warm-up-ms"]),
      ...defined("calibrationIntervalMs", values["calibration-interval-ms"]),
    },
    io.env,
    file,
    io.cwd,
  );
  // The verifier reads the same file for its settings; the repository (the flag's, else the file's) is the one
  // `repositoryDir` names, for the verifier and the memory gate alike.
  return configPath === undefined ? resolved : { ...resolved, config: path.resolve(io.cwd, configPath) };
};

const ensureDirectory = async (database: string) => {
  if (!/^postgres(?:ql)?:\/\//i.test(database) && database !== "memory://")
    await mkdir(database, { recursive: true });
};

const manageKeys = async (action: string | undefined, values: Values, io: CliIO): Promise<number> => {
  if (action !== "create" && action !== "revoke")
    throw new UsageError("use 'serve keys create' or 'serve keys revoke'");
  if (values.user === undefined) throw new UsageError("--user is required");
  const userId = values.user;
  const kind = values.agent === true ? "agent" : (values.role ?? "reviewer");
  if (kind !== "agent" && kind !== "reviewer" && kind !== "admin")
    throw new UsageError(`--role must be agent, reviewer or admin (got "${kind}")`);
  const config = await configOf(values, io);
  await ensureDirectory(config.database);
  const program = Effect.acquireUseRelease(
    openSqlClient(
      config.database,
      config.databaseSchema === undefined ? {} : { schema: config.databaseSchema },
    ),
    (sql) =>
      Effect.gen(function* () {
        yield* migrateServerTables(sql);
        if (action === "revoke") return `revoked ${yield* revokeApiKeys(sql, userId)} key(s) of ${userId}\n`;
        const minted = yield* createApiKey(sql, userId, values.label ?? "", kind);
        return `${minted.key}\n`;
      }),
    (sql) => Effect.ignore(sql.close),
  );
  io.stdout(await runEffect(program));
  if (action === "create")
    io.stderr(
      `${kind === "agent" ? "agent key" : "key"} created for ${userId}; it is shown once and stored only as a hash\n`,
    );
  return ExitCode.ok;
};

/** Resolves when the process receives SIGINT or SIGTERM. */
const shutdownSignal = () =>
  new Promise<string>((resolve) => {
    const stop = (signal: string) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });

const serve = async (values: Values, io: CliIO): Promise<number> => {
  const config = await configOf(values, io);
  await ensureDirectory(config.database);
  const stopped = shutdownSignal();
  let server: RunningServer;
  try {
    server = await startServer({ ...config, env: io.env });
  } catch (error) {
    const tag = (error as { _tag?: string })._tag;
    throw new UsageError(`cannot start: ${tag ? `${tag}: ` : ""}${(error as Error).message}`);
  }
  io.stderr(`veracity serve listening on ${server.url}\n`);
  const signal = await stopped;
  io.stderr(`${signal}: finishing in-flight requests\n`);
  await server.close();
  return ExitCode.ok;
};

const run = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, options);
  if (values.help) {
    io.stdout(`${usage}\n`);
    return ExitCode.ok;
  }
  const [subcommand, action, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
  if (subcommand === "keys") return manageKeys(action, values, io);
  if (subcommand !== undefined) throw new UsageError(`unknown subcommand "${subcommand}"`);
  return serve(values, io);
};

export const serveCommand: CliCommand = {
  name: "serve",
  summary: "run the HTTP API and review UI (and mint API keys)",
  usage,
  examples: [
    "veracity serve keys create --user alice",
    "veracity serve --port 8080 --config veracity.yaml",
    "VERACITY_MODEL=openai:gpt-4o-mini veracity serve --db postgres://localhost/veracity",
  ],
  run,
};
