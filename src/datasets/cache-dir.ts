import { homedir } from "node:os";
import { join, resolve } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/**
 * Where fetched datasets live: the `--cache-dir` flag, else `VERACITY_CACHE_DIR`, else the platform's user
 * cache folder (`$XDG_CACHE_HOME` or `~/.cache` on Linux and other Unixes, `~/Library/Caches` on macOS,
 * `%LOCALAPPDATA%` on Windows), each followed by `veracity/datasets`.
 */
export const datasetsCacheDir = (
  env: Env,
  flag: string | undefined = undefined,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string => {
  if (set(flag)) return resolve(flag);
  if (set(env.VERACITY_CACHE_DIR)) return resolve(env.VERACITY_CACHE_DIR);
  const base =
    platform === "darwin"
      ? join(home, "Library", "Caches")
      : platform === "win32"
        ? set(env.LOCALAPPDATA)
          ? env.LOCALAPPDATA
          : join(home, "AppData", "Local")
        : set(env.XDG_CACHE_HOME)
          ? env.XDG_CACHE_HOME
          : join(home, ".cache");
  return join(base, "veracity", "datasets");
};
