import { defaultLshShape, type LshShape, lshKeys } from "./minhash.js";
import { hashWordSet, sortedJaccard } from "./word-hashes.js";
import { wordSet } from "./word-set.js";

export interface DuplicateMatch {
  readonly memoryId: string;
  /** The exact word-level Jaccard similarity. */
  readonly similarity: number;
}

export interface LshIndexOptions {
  readonly shape?: LshShape;
  /** Most memories one index holds; `add` beyond it throws a RangeError. */
  readonly maxEntries?: number;
}

export const defaultMaxIndexEntries = 5_000_000;

type Bucket = number | number[];

/**
 * An in-memory near-duplicate index: MinHash + LSH banding find candidates, the exact Jaccard of the word
 * sets confirms them, so the index never reports a pair below the threshold and misses a pair above it
 * only with the small probability of `candidateProbability`.
 */
export class LshDedupIndex {
  private readonly shape: LshShape;
  private readonly maxEntries: number;
  private readonly ids: string[] = [];
  private readonly words: (Uint32Array | undefined)[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly bands: Map<number, Bucket>[];
  private live = 0;

  constructor(options: LshIndexOptions = {}) {
    this.shape = options.shape ?? defaultLshShape;
    this.maxEntries = options.maxEntries ?? defaultMaxIndexEntries;
    this.bands = Array.from({ length: this.shape.bands }, () => new Map<number, Bucket>());
  }

  get size(): number {
    return this.live;
  }

  has(memoryId: string): boolean {
    return this.slotOf.has(memoryId);
  }

  add(memoryId: string, text: string): void {
    if (this.slotOf.has(memoryId)) this.remove(memoryId);
    if (this.live >= this.maxEntries)
      throw new RangeError(`dedup index is full (${this.maxEntries} memories)`);
    const hashes = hashWordSet(wordSet(text));
    const slot = this.ids.length;
    this.ids.push(memoryId);
    this.words.push(hashes);
    this.slotOf.set(memoryId, slot);
    this.live++;
    lshKeys(hashes, this.shape).forEach((key, band) => {
      const buckets = this.bands[band]!;
      const bucket = buckets.get(key);
      if (bucket === undefined) buckets.set(key, slot);
      else if (typeof bucket === "number") buckets.set(key, [bucket, slot]);
      else bucket.push(slot);
    });
  }

  /** Removed slots stay in their buckets and are skipped on lookup. */
  remove(memoryId: string): void {
    const slot = this.slotOf.get(memoryId);
    if (slot === undefined) return;
    this.slotOf.delete(memoryId);
    this.words[slot] = undefined;
    this.live--;
  }

  /** The most similar stored memory with exact Jaccard >= threshold, if any. */
  findDuplicate(text: string, threshold: number): DuplicateMatch | undefined {
    let best: DuplicateMatch | undefined;
    for (const match of this.indexedDuplicates(text, threshold))
      if (best === undefined || match.similarity > best.similarity) best = match;
    return best;
  }

  /** Every stored memory with exact Jaccard >= threshold, by a full scan: the reference the index is measured against. */
  scanDuplicates(text: string, threshold: number): DuplicateMatch[] {
    const hashes = hashWordSet(wordSet(text));
    const matches: DuplicateMatch[] = [];
    this.words.forEach((stored, slot) => {
      if (stored === undefined) return;
      const similarity = sortedJaccard(hashes, stored);
      if (similarity >= threshold) matches.push({ memoryId: this.ids[slot]!, similarity });
    });
    return matches;
  }

  /** Every candidate the bands propose that the exact Jaccard confirms (for recall measurements). */
  indexedDuplicates(text: string, threshold: number): DuplicateMatch[] {
    const hashes = hashWordSet(wordSet(text));
    const seen = new Set<number>();
    const matches: DuplicateMatch[] = [];
    for (const [band, key] of lshKeys(hashes, this.shape).entries()) {
      const bucket = this.bands[band]!.get(key);
      if (bucket === undefined) continue;
      for (const slot of typeof bucket === "number" ? [bucket] : bucket) {
        if (seen.has(slot)) continue;
        seen.add(slot);
        const stored = this.words[slot];
        if (stored === undefined) continue;
        const similarity = sortedJaccard(hashes, stored);
        if (similarity >= threshold) matches.push({ memoryId: this.ids[slot]!, similarity });
      }
    }
    return matches;
  }
}
