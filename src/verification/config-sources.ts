import { readFile } from "node:fs/promises";
import { Either, ParseResult, Schema } from "effect";
import { ConfigError } from "../model/errors.js";
import { LayerName } from "../model/layer-name.js";
import { RiskLevel, RiskProfile } from "../model/risk.js";
import { makeSettings, type VerificationSettings } from "./config.js";

const positive = Schema.Number.pipe(Schema.positive());

/** The configuration file: every field optional; unknown fields are refused so a typo is not ignored. */
export const VerificationSettingsFile = Schema.Struct({
  profiles: Schema.optional(Schema.partial(Schema.Record({ key: RiskLevel, value: RiskProfile }))),
  layerTimeouts: Schema.optional(Schema.partial(Schema.Record({ key: LayerName, value: positive }))),
  maxConcurrentLayers: Schema.optional(positive.pipe(Schema.int())),
  enabledLayers: Schema.optional(Schema.partial(Schema.Record({ key: LayerName, value: Schema.Boolean }))),
  strict: Schema.optional(Schema.Boolean),
  fallbackRiskLevel: Schema.optional(RiskLevel),
  maxTextLength: Schema.optional(positive.pipe(Schema.int())),
  maxEvidenceLength: Schema.optional(positive.pipe(Schema.int())),
  maxClaims: Schema.optional(positive.pipe(Schema.int())),
  evidenceFocus: Schema.optional(
    Schema.Struct({
      above: Schema.optional(positive.pipe(Schema.int())),
      keep: Schema.optional(positive.pipe(Schema.int())),
      perAnswerCharacter: Schema.optional(Schema.Number.pipe(Schema.nonNegative())),
    }),
  ),
  sourceCache: Schema.optional(
    Schema.Struct({
      entries: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
      characters: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
    }),
  ),
});
export type VerificationSettingsFile = typeof VerificationSettingsFile.Type;

/** "maxClaim: is unexpected; profiles.low.minConfidence: Expected ..." instead of the whole type. */
export const conciseIssues = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");

const decodeFile = Schema.decodeUnknownEither(VerificationSettingsFile, { onExcessProperty: "error" });

const layerNames = LayerName.members.flatMap((member) => member.literals) as readonly LayerName[];
const envKey = (layer: string) => layer.toUpperCase().replace(/-/g, "_");

const parseNumber = (value: string, key: string): number => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new ConfigError({ message: `${key} must be a positive number (got "${value}")`, key });
  }
  return parsed;
};

/**
 * Settings from the environment: `VERACITY_STRICT=1`, `VERACITY_MAX_CONCURRENT_LAYERS`,
 * `VERACITY_TIMEOUT_<LAYER>` (ms, e.g. `VERACITY_TIMEOUT_SEMANTIC_ENTROPY`), `VERACITY_DISABLED_LAYERS=a,b`,
 * `VERACITY_FALLBACK_RISK`, `VERACITY_MAX_TEXT_LENGTH`, `VERACITY_MAX_CLAIMS`, `VERACITY_SOURCE_CACHE_ENTRIES` and
 * `VERACITY_SOURCE_CACHE_CHARACTERS` (0 keeps none).
 */
export const settingsFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
): VerificationSettingsFile => {
  const settings: Record<string, unknown> = {};
  if (env.VERACITY_STRICT !== undefined) settings.strict = /^(1|true|yes)$/i.test(env.VERACITY_STRICT);
  if (env.VERACITY_MAX_CONCURRENT_LAYERS !== undefined) {
    settings.maxConcurrentLayers = parseNumber(
      env.VERACITY_MAX_CONCURRENT_LAYERS,
      "VERACITY_MAX_CONCURRENT_LAYERS",
    );
  }
  for (const [variable, key] of [
    ["VERACITY_MAX_TEXT_LENGTH", "maxTextLength"],
    ["VERACITY_MAX_CLAIMS", "maxClaims"],
  ] as const) {
    const value = env[variable];
    if (value !== undefined) settings[key] = parseNumber(value, variable);
  }
  const timeouts: Record<string, number> = {};
  for (const layer of layerNames) {
    const variable = `VERACITY_TIMEOUT_${envKey(layer)}`;
    const value = env[variable];
    if (value !== undefined) timeouts[layer] = parseNumber(value, variable);
  }
  if (Object.keys(timeouts).length > 0) settings.layerTimeouts = timeouts;
  if (env.VERACITY_DISABLED_LAYERS) {
    settings.enabledLayers = Object.fromEntries(
      env.VERACITY_DISABLED_LAYERS.split(",")
        .map((name) => name.trim())
        .filter(Boolean)
        .map((name) => [name, false]),
    );
  }
  if (env.VERACITY_FALLBACK_RISK !== undefined) settings.fallbackRiskLevel = env.VERACITY_FALLBACK_RISK;
  const sourceCache: Record<string, number> = {};
  for (const [variable, key] of [
    ["VERACITY_SOURCE_CACHE_ENTRIES", "entries"],
    ["VERACITY_SOURCE_CACHE_CHARACTERS", "characters"],
  ] as const) {
    const value = env[variable];
    // A count: the schema below refuses anything but a whole number of 0 or more ("" and "1e99x" are NaN).
    if (value !== undefined) sourceCache[key] = value.trim() === "" ? Number.NaN : Number(value);
  }
  if (Object.keys(sourceCache).length > 0) settings.sourceCache = sourceCache;
  const decoded = decodeFile(settings);
  if (Either.isLeft(decoded)) {
    throw new ConfigError({
      message: `invalid VERACITY_* settings: ${conciseIssues(decoded.left)}`,
    });
  }
  return decoded.right;
};

/**
 * Settings from a JSON file holding verification settings only (see `VerificationSettingsFile`). The commands
 * read the whole configuration file, YAML or JSON with its other sections, through `readConfigFile` in
 * src/assembly/config-file.ts, which decodes these same settings.
 */
export const settingsFromFile = async (path: string): Promise<VerificationSettingsFile> => {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new ConfigError({
      message: `cannot read configuration ${path}: ${(error as Error).message}`,
      key: path,
    });
  }
  const decoded = decodeFile(raw);
  if (Either.isLeft(decoded)) {
    throw new ConfigError({
      message: `invalid configuration ${path}: ${conciseIssues(decoded.left)}`,
      key: path,
    });
  }
  return decoded.right;
};

/**
 * The settings in force: the defaults, then the file, then the environment, then code — each overriding
 * the one before, field by field (profiles, timeouts and enabled layers merge per key).
 */
export const resolveSettings = (
  ...layers: readonly Partial<VerificationSettingsFile>[]
): VerificationSettings => {
  let merged = makeSettings();
  for (const layer of layers) {
    merged = {
      ...merged,
      ...(layer as Partial<VerificationSettings>),
      profiles: { ...merged.profiles, ...defined(layer.profiles) } as VerificationSettings["profiles"],
      layerTimeouts: { ...merged.layerTimeouts, ...defined(layer.layerTimeouts) },
      enabledLayers: { ...merged.enabledLayers, ...defined(layer.enabledLayers) },
      evidenceFocus: { ...merged.evidenceFocus, ...defined(layer.evidenceFocus) },
      sourceCache: { ...merged.sourceCache, ...defined(layer.sourceCache) },
    };
  }
  return merged;
};

/** The entries of a partial record that are set. */
const defined = <K extends string, V>(
  record: Partial<Record<K, V | undefined>> | undefined,
): Partial<Record<K, V>> =>
  Object.fromEntries(Object.entries(record ?? {}).filter(([, value]) => value !== undefined)) as Partial<
    Record<K, V>
  >;
