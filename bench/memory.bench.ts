/**
 * Memory gate benchmark: validation latency (hedges + citations + dedup + tier) against 10k, 100k and 1M
 * stored memories, and the MinHash/LSH index against an exact Jaccard scan (speed ratio, recall of pairs with
 * exact Jaccard >= 0.92). Synthetic memories from a seeded generator, with planted near-duplicates.
 *
 *   node --max-old-space-size=8192 --expose-gc --import tsx bench/memory.bench.ts \
 *     [--sizes 10000,100000,1000000] [--store-size 10000]
 *
 * The last line measures the store-backed duplicate check (the default of createMemoryGate) on PGlite.
 */
import os from "node:os";
import { Context, Effect } from "effect";
import { CitationVerifier } from "../src/memory/citations/citation-verifier.js";
import { DuplicateChecker } from "../src/memory/dedup/duplicate-checker.js";
import { makeLshDuplicateChecker } from "../src/memory/dedup/lsh-duplicate-checker.js";
import { makeStoreDuplicateChecker } from "../src/memory/dedup/store-duplicate-checker.js";
import { textJaccard } from "../src/memory/dedup/word-set.js";
import { defaultMemoryGateConfig } from "../src/memory/gate/gate-config.js";
import { validateClaim } from "../src/memory/gate/validate-claim.js";
import { ClaimSupportChecker } from "../src/memory/relevance/claim-support-checker.js";
import { makeGroundingSupportChecker } from "../src/memory/relevance/layer-support-checker.js";
import { migrateMemoryStore } from "../src/memory/store/sql-memory-layer.js";
import { makeSqlMemoryStore } from "../src/memory/store/sql-memory-store.js";
import { makeFakeCitationVerifier } from "../src/memory/testing/fakes.js";
import { makePgliteClient } from "../src/storage/pglite-client.js";
import { median, percentile } from "./libraries/statistics.js";
import { syntheticMemories } from "./libraries/synthetic-memories.js";

const sizesArg = process.argv.indexOf("--sizes");
const sizes = (sizesArg > 0 ? process.argv[sizesArg + 1]! : "10000,100000,1000000").split(",").map(Number);
const threshold = 0.92;
const validations = 2_000;
const scanQueries = 200;

// Every run sees the same memories.
const { random, pick, word, sentence, nearDuplicate } = syntheticMemories();

const checker = makeLshDuplicateChecker({ threshold });
const userId = "bench-user";
const stored: string[] = [];
/** [child, parent] positions of the planted near-duplicates. */
const planted: [number, number][] = [];
const addMemories = (count: number) => {
  while (stored.length < count) {
    // 5% of the stored memories are themselves near-duplicates of earlier ones.
    let text: string;
    if (stored.length > 100 && random() < 0.05) {
      const parent = Math.floor(random() * stored.length);
      text = nearDuplicate(stored[parent]!);
      planted.push([stored.length, parent]);
    } else text = sentence();
    Effect.runSync(checker.remember({ id: `m${stored.length}`, userId, content: text }));
    stored.push(text);
  }
};

const citationVerifier = makeFakeCitationVerifier({ "ADR-003": "We use PostgreSQL for storage." });
// Provided as a Context, as makeMemoryGate does (building Layers per call would dominate the timing).
const services = Context.make(DuplicateChecker, checker).pipe(
  Context.add(CitationVerifier, citationVerifier),
  Context.add(ClaimSupportChecker, makeGroundingSupportChecker()),
);

const claimFor = (i: number): { content: string; source: string; memoryType: "fact" } => {
  const kind = i % 10;
  const content =
    kind < 3
      ? nearDuplicate(pick(stored))
      : kind === 3
        ? `I think ${sentence()}`
        : kind === 4
          ? `Per ADR-003, we use PostgreSQL ${word()}`
          : kind === 5
            ? `The server may ${sentence()}`
            : sentence();
  return { content, source: i % 2 === 0 ? "ai_synthesis" : "documentation", memoryType: "fact" };
};

const measureValidation = async () => {
  const latencies: number[] = [];
  const cpuTimes: number[] = [];
  const lookups: number[] = [];
  const tiers: Record<string, number> = {};
  const index = checker.indexOf(userId)!;
  for (let i = 0; i < validations; i++) {
    const claim = { ...claimFor(i), userId };
    const cpu = process.cpuUsage();
    const started = performance.now();
    const { result } = await Effect.runPromise(
      validateClaim(claim, defaultMemoryGateConfig).pipe(Effect.provide(services)),
    );
    latencies.push(performance.now() - started);
    const spent = process.cpuUsage(cpu);
    cpuTimes.push((spent.user + spent.system) / 1000);
    tiers[result.tier] = (tiers[result.tier] ?? 0) + 1;
    const lookupStarted = performance.now();
    index.findDuplicate(claim.content, threshold);
    lookups.push(performance.now() - lookupStarted);
  }
  return {
    p50: median(latencies),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    cpuP50: median(cpuTimes),
    cpuP99: percentile(cpuTimes, 99),
    lookupP50: median(lookups),
    lookupP99: percentile(lookups, 99),
    tiers,
  };
};

const measureIndexAgainstScan = () => {
  const index = checker.indexOf(userId)!;
  const queries = Array.from({ length: scanQueries }, (_, i) =>
    i % 2 === 0 ? nearDuplicate(pick(stored)) : sentence(),
  );
  const indexTimes: number[] = [];
  const scanTimes: number[] = [];
  let exactPairs = 0;
  let foundPairs = 0;
  let falsePairs = 0;
  for (const query of queries) {
    let started = performance.now();
    const exact = index.scanDuplicates(query, threshold);
    scanTimes.push(performance.now() - started);
    started = performance.now();
    const indexed = index.indexedDuplicates(query, threshold);
    indexTimes.push(performance.now() - started);
    const exactIds = new Set(exact.map((match) => match.memoryId));
    exactPairs += exactIds.size;
    for (const match of indexed) {
      if (exactIds.has(match.memoryId)) foundPairs++;
      else falsePairs++;
    }
  }
  // Recall over every planted pair at or above the threshold (tens of thousands at 1M): the index is asked
  // for each child; the pair counts as found when the parent is among the confirmed matches.
  let plantedPairs = 0;
  let plantedFound = 0;
  let partialPairs = 0;
  let partialFound = 0;
  for (const [child, parent] of planted) {
    const similarity = textJaccard(stored[child]!, stored[parent]!);
    if (similarity < threshold) continue;
    const found = index
      .indexedDuplicates(stored[child]!, threshold)
      .some((match) => match.memoryId === `m${parent}`);
    plantedPairs++;
    if (found) plantedFound++;
    if (similarity < 1) {
      partialPairs++;
      if (found) partialFound++;
    }
  }
  return {
    plantedPairs,
    plantedRecall: plantedFound / plantedPairs,
    partialPairs,
    partialRecall: partialFound / partialPairs,
    indexMedianMs: median(indexTimes),
    scanMedianMs: median(scanTimes),
    speedRatio: median(scanTimes) / median(indexTimes),
    exactPairs,
    recall: exactPairs === 0 ? Number.NaN : foundPairs / exactPairs,
    falsePairs,
  };
};

/** The machine's own jitter: a fixed ~0.1 ms workload timed the same way, to read the validation tail against. */
const measureBaseline = async () => {
  const latencies: number[] = [];
  for (let i = 0; i < validations; i++) {
    const started = performance.now();
    await Effect.runPromise(
      Effect.sync(() => {
        let sum = 0;
        for (let j = 0; j < 20_000; j++) sum += Math.sqrt(j);
        return sum;
      }),
    );
    latencies.push(performance.now() - started);
  }
  return { p50: median(latencies), p99: percentile(latencies, 99) };
};

console.log(
  `memory bench: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ${new Date().toISOString()}`,
);
console.log(
  `${validations} validations and ${scanQueries} index-vs-scan queries per size; threshold ${threshold}`,
);
// Warm up the code paths before timing.
addMemories(1_000);
await measureValidation();
for (const size of sizes) {
  const started = performance.now();
  addMemories(size);
  const buildSeconds = (performance.now() - started) / 1000;
  global.gc?.();
  const heapMb = process.memoryUsage().heapUsed / 1e6;
  const validation = await measureValidation();
  const baseline = await measureBaseline();
  const comparison = measureIndexAgainstScan();
  console.log(
    JSON.stringify({
      memories: size,
      buildSeconds: Number(buildSeconds.toFixed(1)),
      heapMb: Math.round(heapMb),
      validationP50Ms: Number(validation.p50.toFixed(3)),
      validationP99Ms: Number(validation.p99.toFixed(3)),
      validationMaxMs: Number(validation.max.toFixed(3)),
      validationCpuP50Ms: Number(validation.cpuP50.toFixed(3)),
      validationCpuP99Ms: Number(validation.cpuP99.toFixed(3)),
      dedupLookupP50Ms: Number(validation.lookupP50.toFixed(4)),
      dedupLookupP99Ms: Number(validation.lookupP99.toFixed(4)),
      loadAverage: Number(os.loadavg()[0]!.toFixed(1)),
      baselineP50Ms: Number(baseline.p50.toFixed(3)),
      baselineP99Ms: Number(baseline.p99.toFixed(3)),
      tiers: validation.tiers,
      indexMedianMs: Number(comparison.indexMedianMs.toFixed(4)),
      scanMedianMs: Number(comparison.scanMedianMs.toFixed(3)),
      speedRatio: Math.round(comparison.speedRatio),
      exactPairsAtOrAbove092: comparison.exactPairs,
      recall: Number(comparison.recall.toFixed(4)),
      indexPairsNotInScan: comparison.falsePairs,
      plantedPairsAtOrAbove092: comparison.plantedPairs,
      plantedRecall: Number(comparison.plantedRecall.toFixed(5)),
      plantedPairsBelowIdentical: comparison.partialPairs,
      plantedRecallBelowIdentical: Number(comparison.partialRecall.toFixed(5)),
    }),
  );
}

// The default of createMemoryGate: band keys stored with every memory (GIN-indexed bigint[]), candidates read
// by one query per validation, exact Jaccard in the process. Embedded PGlite, in memory.
const storeSizeArg = process.argv.indexOf("--store-size");
const storeSize = storeSizeArg > 0 ? Number(process.argv[storeSizeArg + 1]) : 10_000;
if (storeSize > 0) {
  const sql = await Effect.runPromise(makePgliteClient("memory://"));
  await Effect.runPromise(migrateMemoryStore(sql));
  const store = makeSqlMemoryStore(sql);
  const storeChecker = makeStoreDuplicateChecker(store, { threshold });
  const started = performance.now();
  for (const text of stored.slice(0, storeSize))
    await Effect.runPromise(
      store.store({
        userId,
        content: text,
        memoryType: "fact",
        source: "bench",
        evidence: { claim: text, captureTime: new Date(), confidence: "high", metadata: {} },
      }),
    );
  const loadSeconds = (performance.now() - started) / 1000;
  const storeServices = Context.make(DuplicateChecker, storeChecker).pipe(
    Context.add(CitationVerifier, citationVerifier),
    Context.add(ClaimSupportChecker, makeGroundingSupportChecker()),
  );
  const latencies: number[] = [];
  const inStore = stored.slice(0, storeSize);
  let duplicates = 0;
  for (let i = 0; i < 1_000; i++) {
    const content = i % 3 === 0 ? nearDuplicate(pick(inStore)) : sentence();
    const validationStarted = performance.now();
    const { result } = await Effect.runPromise(
      validateClaim(
        { content, userId, source: "documentation", memoryType: "fact" },
        defaultMemoryGateConfig,
      ).pipe(Effect.provide(storeServices)),
    );
    latencies.push(performance.now() - validationStarted);
    if (result.conflictingMemoryId !== undefined) duplicates++;
  }
  await Effect.runPromise(sql.close);
  console.log(
    JSON.stringify({
      storeBackedDedup: "pglite memory://",
      memories: storeSize,
      loadSeconds: Number(loadSeconds.toFixed(1)),
      validationP50Ms: Number(median(latencies).toFixed(3)),
      validationP99Ms: Number(percentile(latencies, 99).toFixed(3)),
      duplicatesFound: duplicates,
      loadAverage: Number(os.loadavg()[0]!.toFixed(1)),
    }),
  );
}
