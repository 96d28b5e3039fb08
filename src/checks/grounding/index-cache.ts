import { LRUCache } from "lru-cache";
import type { EvidenceSource } from "../../model/layer.js";
import { defaultSecondSight, makeSecondSight, type SecondSightOptions } from "../../text/second-sight.js";
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
 * answers against the same documents indexes them at most twice. A set is kept from the second time it is
 * seen, or the first time when it is large (`makeSecondSight`): keeping every set made the garbage collector
 * carry indexes that distinct evidence never uses again. Bounded by entries and characters (lru-cache: the
 * same evictions as a hand-kept Map in use order, in half the bookkeeping time, measured in
 * bench/libraries/lru.bench.ts).
 */
export const makeIndexCache = (
  limits: IndexCacheLimits = defaultIndexCacheLimits,
  admission: SecondSightOptions = defaultSecondSight,
) => {
  if (limits.entries === 0 || limits.characters === 0) return buildSourceIndex;
  const admit = makeSecondSight(admission);
  const cache = new LRUCache<string, SourceIndex>({
    max: limits.entries,
    maxSize: limits.characters,
    sizeCalculation: (_index, key) => Math.max(1, key.length),
  });
  // The last evidence indexed and its index, kept whether or not the cache admitted it: a request that grounds
  // its text again (once the numbers layer has explained some figures) asks for the same evidence right away.
  // Only evidence within the character budget: a larger set is never held past its call.
  let last: { readonly texts: readonly string[]; readonly index: SourceIndex } | undefined;
  const isLast = (evidence: readonly EvidenceSource[]): boolean =>
    last !== undefined &&
    last.texts.length === evidence.length &&
    evidence.every((source, at) => source.text === last?.texts[at]);
  return (evidence: readonly EvidenceSource[]): SourceIndex => {
    if (last && isLast(evidence)) return last.index;
    const texts = evidence.map((source) => source.text);
    const key = texts.join("\u0000");
    const hit = cache.get(key);
    const index = hit ?? buildSourceIndex(evidence);
    // An evidence set larger than the whole budget is indexed and not kept (lru-cache would refuse it too).
    if (hit === undefined && key.length <= limits.characters && admit(texts)) cache.set(key, index);
    last = key.length <= limits.characters ? { texts, index } : undefined;
    return index;
  };
};
