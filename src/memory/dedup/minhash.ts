/**
 * MinHash signatures over word hashes, cut into LSH bands. Two sets with Jaccard s share at least one band
 * with probability 1 - (1 - s^rows)^bands; with 10 bands of 6 rows that is 0.9999 at s = 0.92 and 0.15 at
 * s = 0.5, and every candidate is then confirmed with the exact Jaccard.
 */
export interface LshShape {
  readonly bands: number;
  readonly rows: number;
}

export const defaultLshShape: LshShape = { bands: 10, rows: 6 };

/** The probability that a pair with Jaccard `similarity` becomes a candidate. */
export const candidateProbability = (similarity: number, shape: LshShape): number =>
  1 - (1 - similarity ** shape.rows) ** shape.bands;

// A fixed set of odd multipliers and offsets: signatures must be identical across processes and restarts.
const seeds = (count: number): Uint32Array => {
  const values = new Uint32Array(count * 2);
  let state = 0x9e3779b9;
  for (let i = 0; i < values.length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    values[i] = (t ^ (t >>> 14)) >>> 0;
  }
  return values;
};

const seedCache = new Map<number, Uint32Array>();
const seedsFor = (count: number): Uint32Array => {
  let cached = seedCache.get(count);
  if (cached === undefined) {
    cached = seeds(count);
    seedCache.set(count, cached);
  }
  return cached;
};

const mix = (value: number, seed: number): number => {
  let h = Math.imul(value ^ seed, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

export const minhashSignature = (wordHashes: Uint32Array, size: number): Uint32Array => {
  const signature = new Uint32Array(size).fill(0xffffffff);
  const seed = seedsFor(size);
  for (const word of wordHashes) {
    for (let i = 0; i < size; i++) {
      const value = mix(word, seed[i]!);
      if (value < signature[i]!) signature[i] = value;
    }
  }
  return signature;
};

/**
 * One key per band: the band's rows folded into a non-negative safe integer (53 bits), seeded with the band
 * number so that equal rows in different bands give different keys (one SQL column can hold every band).
 */
export const bandKeys = (signature: Uint32Array, shape: LshShape): number[] => {
  const keys: number[] = [];
  for (let band = 0; band < shape.bands; band++) {
    let high = band + 1;
    let low = 0x2545f491;
    for (let row = 0; row < shape.rows; row++) {
      const value = signature[band * shape.rows + row]!;
      high = Math.imul(high ^ value, 0x9e3779b1) >>> 0;
      low = Math.imul(low ^ value ^ (high >>> 7), 0x85ebca77) >>> 0;
    }
    keys.push((high & 0x1fffff) * 0x100000000 + low);
  }
  return keys;
};

export const lshKeys = (wordHashes: Uint32Array, shape: LshShape = defaultLshShape): number[] =>
  wordHashes.length === 0 ? [] : bandKeys(minhashSignature(wordHashes, shape.bands * shape.rows), shape);

/**
 * A banding for a threshold: the most rows per band (fewest false candidates) whose band count, at most
 * `maxBands`, still misses a pair at the threshold with probability at most `maxMiss`. The default shape
 * serves thresholds from 0.9 up.
 */
export const lshShapeFor = (threshold: number, maxMiss = 1e-4, maxBands = 24): LshShape => {
  if (candidateProbability(threshold, defaultLshShape) >= 1 - maxMiss) return defaultLshShape;
  for (let rows = 8; rows >= 1; rows--) {
    const hit = threshold ** rows;
    const bands = hit >= 1 ? 1 : Math.ceil(Math.log(maxMiss) / Math.log(1 - hit));
    if (bands <= maxBands) return { bands, rows };
  }
  return { bands: maxBands, rows: 1 };
};
