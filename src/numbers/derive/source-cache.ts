import { type PreparedSources, prepareSources, type SourcesReader } from "./prepared-sources.js";

const maxCachedChars = 1_000_000;

/**
 * A `prepareSources` that remembers the last `capacity` evidence sets (up to 1 MB of text each): many
 * answers are usually checked against the same sources. Prepared sources are never mutated, so sharing them
 * is safe. Each layer owns its own cache; there is no module-level state.
 */
export const makeSourcesCache = (capacity = 16): SourcesReader => {
  const recent = new Map<string, PreparedSources>();
  return (evidence, options) => {
    const size = evidence.reduce((total, source) => total + source.text.length, 0);
    if (size > maxCachedChars || capacity <= 0) return prepareSources(evidence, options);
    // A plain concatenation (no JSON escaping of the whole evidence on every call); \u0000 cannot be confused
    // with text because every part is length-prefixed.
    const key = [
      options.decimalSeparator ?? ".",
      options.maxNumbers ?? 0,
      options.maxRun ?? "",
      ...evidence.map((source) => `${source.index}:${source.origin}:${source.text.length}:${source.text}`),
    ].join("\u0000");
    const hit = recent.get(key);
    if (hit) {
      recent.delete(key);
      recent.set(key, hit);
      return hit;
    }
    const prepared = prepareSources(evidence, options);
    recent.set(key, prepared);
    if (recent.size > capacity) recent.delete(recent.keys().next().value as string);
    return prepared;
  };
};
