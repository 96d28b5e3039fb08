import path from "node:path";
import { Schema } from "effect";
import { readConfigFile, ServerSection } from "../assembly/config-file.js";
import { ConfigError } from "../model/errors.js";
import { defaultServerLimits, type ServerLimits } from "./deps.js";

/**
 * The server's view of the configuration file: the `server:` section (or the earlier format's top-level
 * server keys) with the shared `evidence`, `model`, `calibration` and `repository`. The file itself is
 * `VeracityConfigFile`.
 */
/** Most verification worker threads a command line or the environment may ask for. */
export const maxVerifyWorkers = 64;

export const ServerConfigFile = Schema.Struct({
  ...ServerSection.fields,
  evidence: Schema.optional(Schema.String),
  model: Schema.optional(Schema.String),
  calibration: Schema.optional(Schema.String),
  repository: Schema.optional(Schema.String),
});
export type ServerConfigFile = typeof ServerConfigFile.Type;

export interface ResolvedServerConfig {
  readonly port: number;
  readonly host: string;
  readonly database: string;
  readonly databaseSchema?: string;
  readonly evidence?: string;
  readonly model?: string;
  readonly calibration?: string;
  /**
   * The git repository `/v1/verify` checks cited commits and decision records against, and the memory gate its
   * memories' citations: one directory for both (absent: no citations layer, and the gate reads the working
   * directory).
   */
  readonly repositoryDir?: string;
  /** Worker threads for the offline checks; absent: the server's default (`defaultVerifyWorkers`). */
  readonly verifyWorkers?: number;
  /** Characters from which a check runs in the large-request worker; absent: the pool's default (1,000,000). */
  readonly largeRequestChars?: number;
  /** Refit period of the calibration from reviewed outcomes; absent: the server's default (24 h). */
  readonly calibrationUpdateIntervalMs?: number;
  /** The warm-up before listening (the memory gate's and the verification workers'), in ms; absent: 3,000. */
  readonly warmUpMs?: number;
  readonly limits: ServerLimits;
}

/** Flags as the CLI parsed them (strings), before validation. */
export interface ServerFlags {
  readonly port?: string;
  readonly host?: string;
  readonly db?: string;
  readonly dbSchema?: string;
  readonly evidence?: string;
  readonly model?: string;
  readonly calibration?: string;
  readonly repository?: string;
  readonly maxBodyBytes?: string;
  readonly maxBodyBytesInFlight?: string;
  readonly maxBodyBytesInFlightPerKey?: string;
  readonly maxRequestsInFlightPerKey?: string;
  readonly maxConnections?: string;
  readonly maxConnectionsPerAddress?: string;
  readonly headersTimeoutMs?: string;
  readonly timeoutMs?: string;
  readonly rateLimit?: string;
  readonly verifyWorkers?: string;
  readonly largeRequestChars?: string;
  readonly calibrationIntervalMs?: string;
  readonly warmUpMs?: string;
}

/** Reads the server's part of a configuration file (YAML or JSON; see `VeracityConfigFile`). */
export const readServerConfigFile = async (file: string): Promise<ServerConfigFile> => {
  const config = await readConfigFile(file);
  return {
    ...config.server,
    ...(config.evidence === undefined ? {} : { evidence: config.evidence }),
    ...(config.model === undefined ? {} : { model: config.model }),
    ...(config.calibration === undefined ? {} : { calibration: config.calibration }),
    ...(config.repository === undefined ? {} : { repository: config.repository }),
  };
};

const integer = (value: string | undefined, key: string, min: number, max: number): number | undefined => {
  if (value === undefined || value === "") return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max)
    throw new ConfigError({
      message: `${key} must be a whole number from ${min} to ${max} (got "${value}")`,
      key,
    });
  return parsed;
};

const firstOf = <T>(...values: (T | undefined)[]): T | undefined =>
  values.find((value) => value !== undefined);

type NumericLimit = Exclude<keyof ServerLimits, "rateLimit">;

/** Each limit a flag or the file's `limits:` sets: the flag (its field and its name) and the range it takes. */
const limitFlags: {
  readonly [Limit in NumericLimit]: readonly [
    field: keyof ServerFlags,
    name: string,
    min: number,
    max: number,
  ];
} = {
  maxBodyBytes: ["maxBodyBytes", "--max-body-bytes", 1_024, 100 * 1024 * 1024],
  requestTimeoutMs: ["timeoutMs", "--timeout-ms", 100, 600_000],
  maxBodyBytesInFlight: ["maxBodyBytesInFlight", "--max-body-bytes-in-flight", 1_024, 64 * 1024 ** 3],
  maxBodyBytesInFlightPerKey: [
    "maxBodyBytesInFlightPerKey",
    "--max-body-bytes-in-flight-per-key",
    1_024,
    64 * 1024 ** 3,
  ],
  maxRequestsInFlightPerKey: ["maxRequestsInFlightPerKey", "--max-requests-in-flight-per-key", 1, 1_000_000],
  maxConnections: ["maxConnections", "--max-connections", 1, 1_000_000],
  maxConnectionsPerAddress: ["maxConnectionsPerAddress", "--max-connections-per-address", 1, 1_000_000],
  headersTimeoutMs: ["headersTimeoutMs", "--headers-timeout-ms", 100, 600_000],
};

/** Each numeric limit from its flag, else the file's `limits:`, else the server's default. */
const numericLimits = (
  flags: ServerFlags,
  fileLimits: NonNullable<ServerConfigFile["limits"]>,
): Record<NumericLimit, number> => {
  const resolved: Partial<Record<NumericLimit, number>> = {};
  for (const limit of Object.keys(limitFlags) as NumericLimit[]) {
    const [field, name, min, max] = limitFlags[limit];
    resolved[limit] =
      firstOf(integer(flags[field], name, min, max), fileLimits[limit]) ?? defaultServerLimits[limit];
  }
  return resolved as Record<NumericLimit, number>;
};

/**
 * Flags win over the environment, the environment over the file, the file over the defaults. A PGlite
 * directory and the repository are resolved against `cwd`.
 */
export const resolveServerConfig = (
  flags: ServerFlags,
  env: Readonly<Record<string, string | undefined>>,
  file: ServerConfigFile,
  cwd: string,
): ResolvedServerConfig => {
  const port = firstOf(
    integer(flags.port, "--port", 0, 65_535),
    integer(env.VERACITY_PORT ?? env.PORT, "VERACITY_PORT", 0, 65_535),
    file.port,
  );
  const database = firstOf(flags.db, env.DATABASE_URL, env.VERACITY_DB, file.database) ?? ".veracity/data";
  const isDirectory = !/^postgres(?:ql)?:\/\//i.test(database) && database !== "memory://";
  const schema = firstOf(flags.dbSchema, env.VERACITY_DB_SCHEMA, file.databaseSchema);
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new ConfigError({
      message: "the database schema must be a lower-case SQL identifier",
      key: "databaseSchema",
    });
  const rateRequests = firstOf(
    integer(flags.rateLimit, "--rate-limit", 1, 1_000_000),
    integer(env.VERACITY_RATE_LIMIT, "VERACITY_RATE_LIMIT", 1, 1_000_000),
  );
  const fileLimits = file.limits ?? {};
  const rateLimit = { ...defaultServerLimits.rateLimit, ...fileLimits.rateLimit };
  const evidence = firstOf(flags.evidence, env.VERACITY_EVIDENCE, file.evidence);
  const model = firstOf(flags.model, env.VERACITY_MODEL, file.model);
  const calibration = firstOf(flags.calibration, file.calibration);
  const repository = firstOf(flags.repository, file.repository);
  const verifyWorkers = firstOf(
    integer(flags.verifyWorkers, "--verify-workers", 0, maxVerifyWorkers),
    integer(env.VERACITY_VERIFY_WORKERS, "VERACITY_VERIFY_WORKERS", 0, maxVerifyWorkers),
    file.verifyWorkers,
  );
  const largeRequestChars = firstOf(
    integer(flags.largeRequestChars, "--large-request-chars", 0, 1_000_000_000),
    integer(env.VERACITY_LARGE_REQUEST_CHARS, "VERACITY_LARGE_REQUEST_CHARS", 0, 1_000_000_000),
    file.largeRequestChars,
  );
  const calibrationUpdateIntervalMs = firstOf(
    integer(flags.calibrationIntervalMs, "--calibration-interval-ms", 0, 31 * 86_400_000),
    integer(env.VERACITY_CALIBRATION_INTERVAL_MS, "VERACITY_CALIBRATION_INTERVAL_MS", 0, 31 * 86_400_000),
    file.calibrationUpdateIntervalMs,
  );
  const warmUpMs = firstOf(
    integer(flags.warmUpMs, "--warm-up-ms", 0, 600_000),
    integer(env.VERACITY_WARM_UP_MS, "VERACITY_WARM_UP_MS", 0, 600_000),
    file.warmUpMs,
  );
  return {
    port: port ?? 8080,
    host: firstOf(flags.host, env.VERACITY_HOST, file.host) ?? "127.0.0.1",
    database: isDirectory ? path.resolve(cwd, database) : database,
    ...(schema === undefined ? {} : { databaseSchema: schema }),
    ...(evidence === undefined ? {} : { evidence }),
    ...(model === undefined ? {} : { model }),
    ...(calibration === undefined ? {} : { calibration }),
    ...(repository === undefined ? {} : { repositoryDir: path.resolve(cwd, repository) }),
    ...(verifyWorkers === undefined ? {} : { verifyWorkers }),
    ...(largeRequestChars === undefined ? {} : { largeRequestChars }),
    ...(calibrationUpdateIntervalMs === undefined ? {} : { calibrationUpdateIntervalMs }),
    ...(warmUpMs === undefined ? {} : { warmUpMs }),
    limits: {
      ...numericLimits(flags, fileLimits),
      rateLimit: rateRequests === undefined ? rateLimit : { ...rateLimit, requests: rateRequests },
    },
  };
};
