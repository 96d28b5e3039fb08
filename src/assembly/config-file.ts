import { readFile } from "node:fs/promises";
import { Either, JSONSchema, Schema } from "effect";
import { cleanJsonSchema } from "../model/clean-json-schema.js";
import { ConfigError } from "../model/errors.js";
import { conciseIssues, VerificationSettingsFile } from "../verification/config-sources.js";

const Port = Schema.Int.pipe(Schema.between(0, 65_535));
const Positive = Schema.Int.pipe(Schema.positive());

/** How `veracity serve` runs: where it listens, its database and its request limits. */
export const ServerSection = Schema.Struct({
  port: Schema.optional(Port.annotations({ description: "Port to listen on; 0 picks a free one (8080)." })),
  host: Schema.optional(Schema.String.annotations({ description: "Address to listen on (127.0.0.1)." })),
  database: Schema.optional(
    Schema.String.annotations({
      description: "PGlite directory, memory:// or a postgres:// URL (.veracity/data).",
    }),
  ),
  databaseSchema: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[a-z_][a-z0-9_]{0,62}$/)).annotations({
      description: "PostgreSQL schema for Veracity's tables.",
    }),
  ),
  verifyWorkers: Schema.optional(
    Schema.Int.pipe(Schema.between(0, 64)).annotations({
      description: "Worker threads for the offline checks; 0 checks in the server's own thread.",
    }),
  ),
  largeRequestChars: Schema.optional(
    Schema.Int.pipe(Schema.between(0, 1_000_000_000)).annotations({
      description:
        "A check whose answer, context and sources reach this many characters runs in a worker of its own, so smaller checks never wait behind it; 0 sends every check to the same workers (1000000).",
    }),
  ),
  warmUpMs: Schema.optional(
    Schema.Int.pipe(Schema.between(0, 600_000)).annotations({
      description:
        "Before listening, the server verifies made-up answers in each verification worker, then validates stored memories again (read only), each for up to this many ms, so the first requests it serves are not a new process's slow ones; 0 starts at once (3000).",
    }),
  ),
  calibrationUpdateIntervalMs: Schema.optional(
    Schema.Int.pipe(Schema.between(0, 31 * 86_400_000)).annotations({
      description:
        "How often the server refits the model-backed layers' calibration from reviewed outcomes, in ms; 0 turns the schedule off (86400000).",
    }),
  ),
  limits: Schema.optional(
    Schema.Struct({
      maxBodyBytes: Schema.optional(Positive),
      maxBodyBytesInFlight: Schema.optional(
        Positive.annotations({
          description:
            "Request-body bytes held at once across all connections; a request past it is answered 503 server-busy before its body is read (268435456; never below maxBodyBytes).",
        }),
      ),
      maxBodyBytesInFlightPerKey: Schema.optional(
        Positive.annotations({
          description:
            "Request-body bytes one API key's requests hold at once, so one key cannot fill maxBodyBytesInFlight; a request past it is answered 429 key-busy before its body is read (67108864; never below maxBodyBytes, never above maxBodyBytesInFlight).",
        }),
      ),
      maxRequestsInFlightPerKey: Schema.optional(
        Positive.annotations({
          description:
            "Requests one API key has in flight at once in one server process, so one key cannot fill the verifiers' queues; past it the key's requests are answered 429 key-busy before their bodies are read (64).",
        }),
      ),
      maxConnections: Schema.optional(
        Positive.annotations({
          description: "Open connections at once; one past it is closed as it arrives (10000).",
        }),
      ),
      maxConnectionsPerAddress: Schema.optional(
        Positive.annotations({
          description:
            "Open connections one client address (an IPv6 client's /64 network) may hold once half of maxConnections are open; from then on a connection past it is closed as it arrives, so one client cannot hold every connection maxConnections allows (1000). Behind a reverse proxy every connection comes from the proxy's address.",
        }),
      ),
      headersTimeoutMs: Schema.optional(
        Positive.annotations({
          description:
            "Longest a client may take to send a request's headers, in ms; past it the connection is closed (10000).",
        }),
      ),
      requestTimeoutMs: Schema.optional(Positive),
      rateLimit: Schema.optional(Schema.Struct({ requests: Positive, windowMs: Positive })),
    }),
  ),
});
export type ServerSection = typeof ServerSection.Type;

/** What every command that verifies uses: the model, calibration and the stores citations are checked in. */
const SharedFields = {
  model: Schema.optional(
    Schema.String.annotations({ description: "Model for the model-backed layers, e.g. openai:gpt-4o-mini." }),
  ),
  calibration: Schema.optional(
    Schema.String.annotations({ description: "Calibration file written by 'veracity calibrate'." }),
  ),
  evidence: Schema.optional(
    Schema.String.annotations({
      description: "Evidence store for the citations layer (PGlite directory or postgres:// URL).",
    }),
  ),
  repository: Schema.optional(
    Schema.String.annotations({ description: "Repository whose cited commits and ADRs are checked." }),
  ),
};

/**
 * One configuration file for every command (`--config`, `VERACITY_CONFIG`), YAML or JSON: verification settings
 * at the top level (what a settings file held before), the shared `model`, `calibration`, `evidence` and
 * `repository`, and a `server:` section read by `veracity serve`. A server file of the earlier format, with its
 * server keys at the top level, still reads: those keys count as `server:` keys. Unknown keys are refused.
 */
export const VeracityConfigFile = Schema.Struct({
  $schema: Schema.optional(Schema.String.annotations({ description: "The JSON Schema this file follows." })),
  ...VerificationSettingsFile.fields,
  ...SharedFields,
  server: Schema.optional(ServerSection),
  ...ServerSection.fields,
}).annotations({
  identifier: "VeracityConfig",
  title: "Veracity configuration",
  description:
    "Configuration for every veracity command: verification settings, the shared model, calibration, evidence and repository, and the server section.",
});
export type VeracityConfigFile = typeof VeracityConfigFile.Type;

/** The file's contents by section, as the surfaces use them. */
export interface VeracityConfig {
  /** The verification settings (profiles, timeouts, enabled layers, limits ...). */
  readonly settings: VerificationSettingsFile;
  readonly model?: string;
  readonly calibration?: string;
  readonly evidence?: string;
  readonly repository?: string;
  /** The `server:` section, with top-level server keys of the earlier format merged under it. */
  readonly server: ServerSection;
}

/**
 * The JSON Schema of the configuration file, for editors and validators: `schemas/veracity.config.schema.json`
 * (written by `npm run schema:update`). Effect's generated titles are dropped (`cleanJsonSchema`).
 */
export const configJsonSchema = (): Record<string, unknown> => ({
  $schema: "http://json-schema.org/draft-07/schema#",
  ...cleanJsonSchema(JSONSchema.make(VeracityConfigFile)),
});

const decodeConfig = Schema.decodeUnknownEither(VeracityConfigFile, { onExcessProperty: "error" });

const serverKeys = Object.keys(ServerSection.fields) as (keyof ServerSection)[];
const sharedKeys = Object.keys(SharedFields) as (keyof typeof SharedFields)[];

/** Splits a decoded file into its sections. */
export const configSections = (file: VeracityConfigFile): VeracityConfig => {
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(VerificationSettingsFile.fields))
    if (file[key as keyof VeracityConfigFile] !== undefined)
      settings[key] = file[key as keyof VeracityConfigFile];
  const legacyServer: Record<string, unknown> = {};
  for (const key of serverKeys) if (file[key] !== undefined) legacyServer[key] = file[key];
  const shared: Record<string, string> = {};
  for (const key of sharedKeys) if (file[key] !== undefined) shared[key] = file[key];
  return {
    settings: settings as VerificationSettingsFile,
    ...shared,
    server: { ...legacyServer, ...file.server } as ServerSection,
  };
};

/** Parses a configuration's text: JSON for `.json` files, YAML (which JSON also is) for anything else. */
export const parseConfig = async (text: string, file: string): Promise<VeracityConfig> => {
  let raw: unknown;
  try {
    // The YAML parser is loaded only when a YAML file is read.
    raw = /\.json$/i.test(file) ? JSON.parse(text) : (await import("yaml")).parse(text);
  } catch (error) {
    throw new ConfigError({
      message: `cannot read the configuration file ${file}: ${(error as Error).message}`,
      key: file,
    });
  }
  const decoded = decodeConfig(raw ?? {});
  if (Either.isLeft(decoded))
    throw new ConfigError({
      message: `invalid configuration ${file}: ${conciseIssues(decoded.left)}`,
      key: file,
    });
  return configSections(decoded.right);
};

/** Reads a configuration file (see `VeracityConfigFile`); a missing or invalid file is a `ConfigError`. */
export const readConfigFile = async (file: string): Promise<VeracityConfig> => {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ConfigError({
      message: `cannot read the configuration file ${file}: ${(error as Error).message}`,
      key: file,
    });
  }
  return parseConfig(text, file);
};
