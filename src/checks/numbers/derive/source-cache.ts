import { type CacheStats, cacheStatsOf, makeCacheCounts } from "../../../model/cache-stats.js";
import { type EvidenceSource, evidenceCharacters } from "../../../model/layer.js";
import { defaultSecondSight, makeSecondSight, type SecondSightOptions } from "../../../text/second-sight.js";
import { defaultSourceCacheLimits, makeTextCache, type TextCacheLimits } from "../../../text/text-cache.js";
import type { ExtractOptions } from "../extract/types.js";
import {
  type PreparedSources,
  type PrepareOptions,
  prepareSources,
  type SourcesReader,
} from "./prepared-sources.js";
import { atPlace, readSource, type SourceReader, type SourceReading } from "./source-numbers.js";

const maxCachedChars = 1_000_000;

interface Entry {
  readonly evidence: readonly EvidenceSource[];
  readonly options: string;
  readonly prepared: PreparedSources;
}

const optionsKey = (options: PrepareOptions) =>
  `${options.decimalSeparator ?? "."}\u0000${options.maxNumbers ?? 0}\u0000${options.maxRun ?? ""}`;

/** The options a reading of one text depends on. */
const readingKey = (options: ExtractOptions) =>
  `${options.decimalSeparator ?? "."}\u0000${options.maxNumbers ?? 0}\u0000${options.yearsAreValues === true}`;

/** A reading of one text as it was read: its figures numbered from `firstId`, naming source `index`. */
interface PlacedReading {
  readonly reading: SourceReading;
  readonly firstId: number;
  readonly index: number;
}

/**
 * `readSource`, its readings kept per text (see `makeTextCache`): a source that comes back in other company (a
 * retrieval system's document handed to many answers) is read at most twice. A reading is kept as it was read,
 * with the id it numbered from and the source index it named; a later set that places the text elsewhere gets
 * copies with its own ids and source index (a text read, not found, is never copied).
 */
export const makeSourceReadings = (
  limits: TextCacheLimits = defaultSourceCacheLimits,
  admission: SecondSightOptions = defaultSecondSight,
): SourceReader & { readonly stats: () => CacheStats } => {
  const readingOf = makeTextCache<PlacedReading>(limits, admission);
  const read: SourceReader = (evidence, firstId, options) => {
    const placed = readingOf(evidence.text, readingKey(options), () => ({
      reading: readSource(evidence, firstId, options),
      firstId,
      index: evidence.index,
    }));
    if (placed.firstId === firstId && placed.index === evidence.index) return placed.reading;
    const shift = firstId - placed.firstId;
    return {
      numbers: placed.reading.numbers.map((number) => atPlace(number, number.id + shift, evidence.index)),
      scaleUnknown: placed.reading.scaleUnknown,
    };
  };
  return Object.assign(read, { stats: () => readingOf.stats("numbers.sources") });
};

/** The same evidence: index, origin and text of every source, in order. Lengths are compared before texts. */
const sameEvidence = (a: readonly EvidenceSource[], b: readonly EvidenceSource[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as EvidenceSource;
    const y = b[i] as EvidenceSource;
    if (x.text.length !== y.text.length || x.index !== y.index || x.origin !== y.origin) return false;
  }
  for (let i = 0; i < a.length; i++)
    if ((a[i] as EvidenceSource).text !== (b[i] as EvidenceSource).text) return false;
  return true;
};

/** A `prepareSources` that remembers evidence it has read; `stats` counts what its caches did. */
export interface SourcesCache extends SourcesReader {
  /** The cache of whole sets (`numbers.evidence-sets`) and of single sources (`numbers.sources`). */
  readonly stats: () => readonly CacheStats[];
}

/** How much a `makeSourcesCache` keeps, and when. */
export interface SourcesCacheOptions {
  /** Evidence sets kept whole (default 16); 0 keeps nothing, not even single sources. */
  readonly capacity?: number;
  /** When a set or a source is kept: from its second sight, or at once when large. */
  readonly admission?: SecondSightOptions;
  /** Bounds of the single sources' readings kept (default `defaultSourceCacheLimits`). */
  readonly sourceLimits?: TextCacheLimits;
}

/**
 * A `prepareSources` that remembers the last `capacity` evidence sets (up to 1 MB of text each) it has read
 * twice, or once when large (see `makeSecondSight`): many answers are usually checked against the same sources.
 * Prepared sources are never mutated, so sharing them is safe. Each layer owns its own cache; there is no
 * module-level state. Entries are found by comparing the evidence itself (lengths first), not by a key built from
 * the whole text on every call. A set it does not hold is read from its sources' readings, kept one by one
 * (`makeSourceReadings`, bounded by `sourceLimits`): a document that comes back among other documents is not
 * read again.
 */
export const makeSourcesCache = ({
  capacity = 16,
  admission = defaultSecondSight,
  sourceLimits = defaultSourceCacheLimits,
}: SourcesCacheOptions = {}): SourcesCache => {
  const admit = makeSecondSight(admission);
  const counts = makeCacheCounts();
  // A set not kept whole is read from its sources' readings, each kept on its own.
  const sources = capacity > 0 ? makeSourceReadings(sourceLimits, admission) : undefined;
  const readOne = sources ?? readSource;
  // Least recently used first.
  const recent: Entry[] = [];
  const read: SourcesReader = (evidence, options) => {
    const size = evidenceCharacters(evidence);
    if (capacity <= 0 || size > maxCachedChars) {
      counts.bypassed += 1;
      return prepareSources(evidence, options, readOne);
    }
    counts.lookups += 1;
    const key = optionsKey(options);
    const at = recent.findIndex((entry) => entry.options === key && sameEvidence(entry.evidence, evidence));
    const hit = recent[at];
    if (hit) {
      counts.hits += 1;
      recent.splice(at, 1);
      recent.push(hit);
      return hit.prepared;
    }
    const prepared = prepareSources(evidence, options, readOne);
    // Kept from the second time these sources are read, or at once when they are large (see `makeSecondSight`).
    if (!admit(evidence.map((source) => source.text))) return prepared;
    // A copy of the list and of each source: the caller's objects are not ours to keep as they are.
    recent.push({
      evidence: evidence.map((source) => ({ ...source })),
      options: key,
      prepared,
    });
    if (recent.length > capacity) {
      recent.shift();
      counts.evictions += 1;
    }
    return prepared;
  };
  const stats = () => [
    cacheStatsOf("numbers.evidence-sets", counts, {
      entries: recent.length,
      characters: recent.reduce((sum, entry) => sum + evidenceCharacters(entry.evidence), 0),
      maxEntries: Math.max(0, capacity),
    }),
    ...(sources === undefined ? [] : [sources.stats()]),
  ];
  return Object.assign(read, { stats });
};
