import type { EvidenceSource } from "../../model/layer.js";
import { buildSourceIndex, type SourceIndex } from "./source-index.js";

export interface IndexCacheLimits {
  /** How many distinct evidence sets are kept. */
  readonly entries: number;
  /** How many characters of evidence are kept in all. */
  readonly characters: number;
}

export const defaultIndexCacheLimits: IndexCacheLimits = { entries: 64, characters: 8_000_000 };

/**
 * Source indexes of recent evidence sets, least recently used out first: an assistant that checks many
 * answers against the same documents pays for indexing them once. Bounded by entries and characters.
 */
export const makeIndexCache = (limits: IndexCacheLimits = defaultIndexCacheLimits) => {
  const cache = new Map<string, { index: SourceIndex; size: number }>();
  let characters = 0;
  return (evidence: readonly EvidenceSource[]): SourceIndex => {
    if (limits.entries === 0) return buildSourceIndex(evidence);
    const key = evidence.map((source) => source.text).join("\u0000");
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit.index;
    }
    const index = buildSourceIndex(evidence);
    if (key.length > limits.characters || limits.entries === 0) return index;
    cache.set(key, { index, size: key.length });
    characters += key.length;
    for (const [oldKey, old] of cache) {
      if (cache.size <= limits.entries && characters <= limits.characters) break;
      cache.delete(oldKey);
      characters -= old.size;
    }
    return index;
  };
};
