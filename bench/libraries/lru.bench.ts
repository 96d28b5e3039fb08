/**
 * The source-index cache (src/checks/grounding/index-cache.ts, a Map kept in use order with a character
 * budget) against lru-cache with `maxSize` and `sizeCalculation`, on the same keys: evidence sets of real
 * sources from the labelled files, each looked up in a mixed order of hits and misses, with the same bounds.
 * Only the bookkeeping is timed: the value is a placeholder, not a built index.
 *
 *   node --import tsx bench/libraries/lru.bench.ts
 */
import { LRUCache } from "lru-cache";
import { lcg } from "./seeded.js";
import { median } from "./statistics.js";
import { readBenchmarkTexts } from "./texts.js";

const entries = 64;
const characters = 8_000_000;
const keys = (await readBenchmarkTexts(400)).map((text, index) => `${index}\u0000${text}`);
// A realistic mix: mostly the last few evidence sets again (an assistant checking several answers per
// document), sometimes an older one, often a new one.
const random = lcg(7);
const order = Array.from({ length: 200_000 }, (_, step) => {
  const recent = Math.floor(step / 500) % keys.length;
  const pick = random();
  const at =
    pick < 0.6
      ? recent
      : pick < 0.8
        ? (recent + keys.length - 1 - Math.floor(random() * 40)) % keys.length
        : Math.floor(random() * keys.length);
  return keys[at] as string;
});

const ours = () => {
  const cache = new Map<string, { value: number; size: number }>();
  let used = 0;
  let hits = 0;
  for (const key of order) {
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      hits += 1;
      continue;
    }
    cache.set(key, { value: 1, size: key.length });
    used += key.length;
    for (const [oldKey, old] of cache) {
      if (cache.size <= entries && used <= characters) break;
      cache.delete(oldKey);
      used -= old.size;
    }
  }
  return hits;
};

const library = () => {
  const cache = new LRUCache<string, { value: number }>({
    max: entries,
    maxSize: characters,
    sizeCalculation: (_value, key) => key.length,
  });
  let hits = 0;
  for (const key of order) {
    if (cache.get(key) !== undefined) {
      hits += 1;
      continue;
    }
    cache.set(key, { value: 1 });
  }
  return hits;
};

const time = (run: () => number) => {
  const started = performance.now();
  const hits = run();
  return { ms: performance.now() - started, hits };
};
const rounds: Record<string, number[]> = { ours: [], "lru-cache": [] };
let hitCounts: Record<string, number> = {};
for (let round = 0; round < 9; round += 1)
  for (const [name, run] of [
    ["ours", ours],
    ["lru-cache", library],
  ] as const) {
    const { ms, hits } = time(run);
    rounds[name]?.push(ms);
    hitCounts = { ...hitCounts, [name]: hits };
  }
console.log(
  `${order.length} lookups over ${keys.length} evidence sets, ${entries} entries, ${characters} characters`,
);
for (const name of Object.keys(rounds))
  console.log(
    `${name.padEnd(10)} median ${median(rounds[name] as number[]).toFixed(1)} ms, hits ${hitCounts[name]}`,
  );
