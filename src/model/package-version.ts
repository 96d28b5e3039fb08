import { readFileSync } from "node:fs";

/**
 * The version in the package's own package.json (three levels up from both `src/model/*.ts` and `dist/model/*.js`), read
 * once; "unknown" when the file cannot be read, e.g. in a bundle that dropped it.
 */
let cached: string | undefined;
export const packageVersion = (): string => {
  if (cached !== undefined) return cached;
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    cached = typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    cached = "unknown";
  }
  return cached as string;
};
