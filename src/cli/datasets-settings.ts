import { datasetsCacheDir } from "../datasets/cache-dir.js";
import {
  defaultIdleTimeoutMs,
  defaultMaxBytesPerFile,
  type FetchOptions,
} from "../datasets/fetch-dataset.js";
import { bundledLicenceDir } from "../datasets/licence-texts.js";
import { UsageError } from "./command.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface DatasetFlags {
  readonly cacheDir?: string | undefined;
  readonly mirror?: string | undefined;
  readonly trustUnpinned?: boolean | undefined;
  readonly force?: boolean | undefined;
}

const timeoutOf = (env: Env): number => {
  const raw = env.VERACITY_DATASETS_TIMEOUT_MS;
  if (raw === undefined || raw.trim() === "") return defaultIdleTimeoutMs;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 600_000)
    throw new UsageError(
      `VERACITY_DATASETS_TIMEOUT_MS must be a whole number of ms from 1 to 600000, got "${raw}"`,
    );
  return value;
};

/**
 * Fetch settings from the flags and the environment: `--cache-dir` / `VERACITY_CACHE_DIR`, `--mirror` /
 * `VERACITY_DATASETS_MIRROR` (a host laid out like raw.githubusercontent.com), `VERACITY_DATASETS_TIMEOUT_MS`
 * (idle timeout, default 30 s).
 */
export const fetchOptionsOf = (
  env: Env,
  flags: DatasetFlags,
  progress?: (message: string) => void,
): FetchOptions => {
  const mirror = flags.mirror ?? (env.VERACITY_DATASETS_MIRROR?.trim() || undefined);
  return {
    cacheDir: datasetsCacheDir(env, flags.cacheDir),
    ...(mirror !== undefined ? { mirror } : {}),
    trustUnpinned: flags.trustUnpinned === true,
    force: flags.force === true,
    idleTimeoutMs: timeoutOf(env),
    maxBytesPerFile: defaultMaxBytesPerFile,
    licenceDir: bundledLicenceDir(),
    ...(progress !== undefined ? { progress } : {}),
  };
};
