/**
 * Store-backed duplicate detection at scale: one user's memories loaded into the SQL memory store (band keys
 * in `veracity_memory_bands`, as `store()` writes them), then 1,200 validations through the memory gate's
 * `validateClaim` with the store's duplicate checker (a third of them near-duplicates of stored memories).
 * Reports p50/p99 per validation on the embedded store (a PGlite data directory) and on PostgreSQL: over the
 * 1,000 that follow the first 200 (a running server's steady state), and over the first 200 after opening the
 * store on their own. PGlite is PostgreSQL compiled to WebAssembly: V8 first runs it through its baseline
 * compiler and replaces the hot functions with optimised code in the background over the first second or two,
 * and those first checks are slower whatever the store holds (the same at 20,000 memories as at 1,000,000).
 *
 *   node --max-old-space-size=8192 --import tsx bench/memory-store-scale.bench.ts \
 *     [--memories 1000000] [--backends pglite,postgres] [--postgres postgres://postgres@127.0.0.1:5432/test]
 *     [--keep <pglite directory>,<postgres schema>]
 *
 * With --keep the loaded stores are kept (and a later run with the same --keep measures them without loading
 * again), so the load can run while the machine is busy and the measurement when it is quiet.
 *
 * Each store is measured in a process of its own (the bench runs itself once per store): the first checks in
 * a process also run the memory gate's JavaScript before V8 has optimised it, so a store measured after
 * another in the same process would report its first 200 checks on warm code.
 *
 * `--warm-up all` (the default) measures each store three times, each time in a new process: `none`, the first
 * 200 checks right after opening (a library caller that never warms up); `default`, the first 200 after the
 * memory gate's warm-up with the server's default budget (`warmUpValidation`), whose own time is reported beside
 * them; and `server`, the same after what `veracity serve` runs before it: a pool of the default verification
 * workers warming up on made-up answers (`WorkerPoolVerifier.warmUp`), whose workers then stay, idle, as a
 * server's do. `--warm-up both` measures `none` and `default`.
 *
 * `--cache-mb <n>` opens the PGlite store with that page cache (`cacheMb`); by default it gets the one a store
 * of its size is opened with (pglite-cache-size.ts).
 *
 * Loading goes through bulk INSERT ... SELECT FROM unnest(...) in batches (one transaction each), with the same
 * rows `insertMemory` writes: loading a million memories one `store()` call at a time takes hours and measures
 * the insert path, not the check. The measured validations use the product's own code.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { Context, Effect } from "effect";
import { createWorkerPoolVerifier, defaultVerifyWorkers } from "../src/facade/worker-pool/index.js";
import { CitationVerifier } from "../src/memory/citations/citation-verifier.js";
import { DuplicateChecker } from "../src/memory/dedup/duplicate-checker.js";
import { makeStoreDuplicateChecker } from "../src/memory/dedup/store-duplicate-checker.js";
import { defaultMemoryGateConfig } from "../src/memory/gate/gate-config.js";
import { validateClaim } from "../src/memory/gate/validate-claim.js";
import { defaultWarmUp, warmUpValidation } from "../src/memory/gate/warm-up.js";
import { ClaimSupportChecker } from "../src/memory/relevance/claim-support-checker.js";
import { makeGroundingSupportChecker } from "../src/memory/relevance/layer-support-checker.js";
import { migrateMemoryStore } from "../src/memory/store/sql-memory-layer.js";
import { makeSqlMemoryStore } from "../src/memory/store/sql-memory-store.js";
import { bandKeysOf } from "../src/memory/store/sql-rows.js";
import { makeFakeCitationVerifier } from "../src/memory/testing/fakes.js";
import { makePgliteClient } from "../src/storage/pglite-client.js";
import { makePostgresClient } from "../src/storage/postgres-client.js";
import type { SqlClientService } from "../src/storage/sql-client.js";
import { percentile } from "./libraries/statistics.js";
import { mulberry32, syntheticMemories } from "./libraries/synthetic-memories.js";

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] as string) : fallback;
};
const memories = Number(argument("--memories", "1000000"));
const backends = argument("--backends", "pglite,postgres").split(",");
const warmUpChoice = argument("--warm-up", "all");
const warmUpModes =
  warmUpChoice === "all"
    ? ["none", "default", "server"]
    : warmUpChoice === "both"
      ? ["none", "default"]
      : [warmUpChoice];
if (!warmUpModes.every((mode) => mode === "none" || mode === "default" || mode === "server"))
  throw new Error("--warm-up takes all, both, none, default or server");
const postgresUrl = argument("--postgres", "postgres://postgres@127.0.0.1:5432/test");
const keep = argument("--keep", "")
  .split(",")
  .filter((part) => part.length > 0);
const batch = 2_000;
const validations = 1_000;
/** Validations right after opening, reported apart: the store's WebAssembly is still being optimised. */
const afterOpening = 200;
const userId = "bench-user";

if (backends.length > 1 || warmUpModes.length > 1) {
  // One process per store and warm-up, the same arguments otherwise: see above.
  const own = process.argv.slice(2);
  const withValue = (args: string[], name: string, value: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.map((arg, index) => (index === at + 1 ? value : arg)) : [...args, name, value];
  };
  for (const backend of backends) {
    for (const mode of warmUpModes) {
      const args = withValue(withValue(own, "--backends", backend), "--warm-up", mode);
      const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string, ...args], {
        stdio: "inherit",
      });
      if (child.status !== 0) process.exit(child.status ?? 1);
    }
  }
  process.exit(0);
}

// The same memories as bench/memory.bench.ts, for every run and both stores.
const { sentence, nearDuplicate } = syntheticMemories();

const texts = Array.from({ length: memories }, sentence);
// The claims checked, drawn once so both stores are asked the same ones: a third near-duplicates of stored
// memories, the rest new sentences.
const probe = mulberry32(0xbe7c4);
const probes = Array.from({ length: afterOpening + validations }, (_, i) =>
  i % 3 === 0
    ? { planted: true, content: nearDuplicate(texts[Math.floor(probe() * texts.length)] as string) }
    : { planted: false, content: sentence() },
);
const evidence = JSON.stringify({
  claim: "bench",
  captureTime: new Date().toISOString(),
  confidence: "high",
  metadata: {},
});

const load = async (sql: SqlClientService) => {
  const at = new Date();
  for (let from = 0; from < texts.length; from += batch) {
    const slice = texts.slice(from, from + batch);
    const ids = slice.map(() => randomUUID());
    const bandIds: string[] = [];
    const bandKeys: string[] = [];
    slice.forEach((text, index) => {
      for (const key of bandKeysOf(text)) {
        bandIds.push(ids[index] as string);
        bandKeys.push(key);
      }
    });
    await Effect.runPromise(
      sql.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.query(
            `INSERT INTO veracity_memories (id, user_id, content, memory_type, source, evidence, valid_until, created_at)
             SELECT id, $1, content, 'fact', 'bench', $2::jsonb, NULL, $3 FROM unnest($4::text[], $5::text[]) AS t(id, content)`,
            [userId, evidence, at, ids, slice],
          );
          yield* tx.query(
            `INSERT INTO veracity_memory_bands (user_id, band_key, memory_id)
             SELECT $1, key, id FROM unnest($2::bigint[], $3::text[]) AS t(key, id)`,
            [userId, bandKeys, bandIds],
          );
        }),
      ),
    );
  }
  await Effect.runPromise(
    sql.query(
      `INSERT INTO veracity_memory_counts (user_id, n) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET n = EXCLUDED.n`,
      [userId, texts.length],
    ),
  );
  await Effect.runPromise(sql.query("ANALYZE"));
};

const measure = async (name: string, sql: SqlClientService) => {
  await Effect.runPromise(migrateMemoryStore(sql));
  const loadStarted = performance.now();
  const [held] = await Effect.runPromise(
    sql.query<{ n: number | string }>("SELECT count(*) AS n FROM veracity_memories"),
  );
  const loaded = Number(held?.n ?? 0) >= memories;
  if (!loaded) await load(sql);
  const loadSeconds = loaded ? Number.NaN : (performance.now() - loadStarted) / 1000;
  const store = makeSqlMemoryStore(sql);
  const services = Context.make(DuplicateChecker, makeStoreDuplicateChecker(store, { threshold: 0.92 })).pipe(
    Context.add(CitationVerifier, makeFakeCitationVerifier({})),
    Context.add(ClaimSupportChecker, makeGroundingSupportChecker()),
  );
  // What `veracity serve` does before it listens, with its default budget (`defaultWarmUp`); with `server`, after
  // the verification workers' warm-up, as the server runs both.
  const gateWarmUp = () =>
    Effect.runPromise(
      warmUpValidation(
        store,
        {
          dedup: Context.get(services, DuplicateChecker),
          support: Context.get(services, ClaimSupportChecker),
        },
        defaultMemoryGateConfig,
      ),
    );
  const pool =
    warmUpModes[0] === "server" ? createWorkerPoolVerifier({ workers: defaultVerifyWorkers() }) : undefined;
  // As the server runs them: the workers' first, then the gate's.
  const workersWarmUp = await pool?.warmUp({ maxMs: defaultWarmUp.maxMs });
  const warmUp = warmUpModes[0] === "none" ? undefined : await gateWarmUp();
  const latencies: number[] = [];
  const openingLatencies: number[] = [];
  let duplicates = 0;
  let plantedDuplicates = 0;
  for (const [i, { planted, content }] of probes.entries()) {
    const counted = i >= afterOpening;
    if (planted && counted) plantedDuplicates++;
    const started = performance.now();
    const { result } = await Effect.runPromise(
      validateClaim(
        { content, userId, source: "documentation", memoryType: "fact" },
        defaultMemoryGateConfig,
      ).pipe(Effect.provide(services)),
    );
    (counted ? latencies : openingLatencies).push(performance.now() - started);
    if (result.conflictingMemoryId !== undefined && counted) duplicates++;
  }
  await pool?.close();
  const [count] = await Effect.runPromise(
    sql.query<{ n: number | string }>("SELECT count(*) AS n FROM veracity_memories"),
  );
  console.log(
    JSON.stringify({
      store: name,
      memories: Number(count?.n),
      loadSeconds: Number(loadSeconds.toFixed(1)),
      validations,
      p50Ms: Number(percentile(latencies, 50).toFixed(3)),
      p99Ms: Number(percentile(latencies, 99).toFixed(3)),
      maxMs: Number(Math.max(...latencies).toFixed(3)),
      warmUp: warmUp ?? "none",
      ...(workersWarmUp === undefined ? {} : { workersWarmUp }),
      firstAfterOpening: {
        validations: afterOpening,
        p50Ms: Number(percentile(openingLatencies, 50).toFixed(3)),
        p99Ms: Number(percentile(openingLatencies, 99).toFixed(3)),
      },
      duplicatesFound: duplicates,
      nearDuplicatesAsked: plantedDuplicates,
      loadAverage: os.loadavg().map((value) => Number(value.toFixed(1))),
    }),
  );
};

console.log(`node ${process.version}, ${os.availableParallelism()} cores, ${new Date().toISOString()}`);
if (backends.includes("pglite")) {
  const directory = keep[0] ?? (await mkdtemp(join(os.tmpdir(), "veracity-dedup-scale-")));
  const cacheMb = argument("--cache-mb", "");
  const sql = await Effect.runPromise(
    makePgliteClient(directory, cacheMb === "" ? {} : { cacheMb: Number(cacheMb) }),
  );
  try {
    await measure("pglite (data directory)", sql);
  } finally {
    await Effect.runPromise(sql.close);
    if (keep[0] === undefined) await rm(directory, { recursive: true, force: true });
  }
}
if (backends.includes("postgres")) {
  const schema = keep[1] ?? `dedup_scale_${Date.now()}`;
  const admin = await Effect.runPromise(makePostgresClient(postgresUrl));
  await Effect.runPromise(admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`));
  const sql = await Effect.runPromise(makePostgresClient(postgresUrl, { schema }));
  try {
    await measure("postgresql", sql);
  } finally {
    await Effect.runPromise(sql.close);
    if (keep[1] === undefined) await Effect.runPromise(admin.query(`DROP SCHEMA ${schema} CASCADE`));
    await Effect.runPromise(admin.close);
  }
}
