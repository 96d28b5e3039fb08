/**
 * Citation grounding benchmark (bounded: one pass over the generated claims, five timed repetitions).
 *
 *   node --import tsx bench/citations.bench.ts            # PGlite, plus PostgreSQL when reachable
 *   node --import tsx bench/citations.bench.ts --no-pg    # PGlite only
 *   node --import tsx bench/citations.bench.ts --no-eval  # skip the eval-harness reproduction
 *
 * 0. times extraction and the uncited scan on 1 MB of near-miss patterns;
 * 1. loads the ethereum-etl records into an evidence store (PGlite in memory);
 * 2. runs the citations layer over the claims of bench/citations-claims.ts and reports, per category, how
 *    often the fabricated citation is NOT_FOUND, a wrong attribute is a MISMATCH, a true claim is flagged;
 * 3. verifies 1,000 mixed citations (transactions, blocks, addresses, 10% fabricated) batched
 *    (one `= ANY($1)` query per kind) and one query per citation, side by side, medians of 5 runs;
 * 4. reproduces (2) through the eval harness and the CLI verifier (`--layers citations --evidence <db>`).
 *
 * Data: VERACITY_DATASETS_DIR/ethereum, else the fetched ethereum-etl dataset. PostgreSQL: VERACITY_TEST_PG_URL.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { Effect, Exit, Scope } from "effect";
import { buildVerifier } from "../src/assembly/build-verifier.js";
import { citationKey, type ExtractedCitation } from "../src/checks/citations/citation.js";
import { extractCitations } from "../src/checks/citations/extract/extract.js";
import { makeCitationsLayer } from "../src/checks/citations/layer.js";
import {
  type EvidenceStore,
  openEvidenceStore,
  prepareEvidenceStore,
} from "../src/checks/citations/store/evidence-store.js";
import { ethereumDirectory, missingEthereumData } from "../src/checks/citations/testing/benchmarks-dir.js";
import { findUncitedStatements } from "../src/checks/citations/uncited/find-uncited.js";
import { makeStoreVerifier } from "../src/checks/citations/verifiers/store-verifier.js";
import { runEvaluation } from "../src/eval/runner.js";
import { storageBackends } from "../src/storage/testing.js";
import { segmentClaims } from "../src/text/claims.js";
import { type ClaimCategory, type ClaimRecord, generateCitationClaims } from "./citations-claims.js";
import { median } from "./libraries/statistics.js";

const missing = missingEthereumData();
if (missing) {
  process.stderr.write(`${missing}\n`);
  process.exit(2);
}
const withPostgres = !process.argv.includes("--no-pg");
const withEval = !process.argv.includes("--no-eval");
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);
const percent = (part: number, whole: number) =>
  whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(2)}%`;

console.log(
  `# citations benchmark, ${new Date().toISOString()}, node ${process.version}, ${cpus().length} cores`,
);

// 0. Extraction on 1 MB of near-miss patterns (linear time).
{
  const nearMisses = [
    `[TX:0x${"a1".repeat(31)}f]`,
    `[ADDR:0x${"b2".repeat(19)}c] `,
    "[BLOCK:12a] ",
    "[TS:2023-13-99T99] ",
    "http:/ ",
    "#abc ",
    "ADR- ",
    `${"0a".repeat(21)}g `,
    "GH- ",
    "sent 5 ETHx at block x ",
  ].join("");
  const text = nearMisses.repeat(Math.ceil(1_000_000 / nearMisses.length)).slice(0, 1_000_000);
  const times: number[] = [];
  for (let repetition = 0; repetition < 5; repetition += 1) {
    const started = performance.now();
    const extraction = extractCitations(text);
    findUncitedStatements(text, extraction.citations);
    times.push(performance.now() - started);
  }
  console.log(
    `\n## extraction + uncited scan, 1 MB of near-miss patterns: median ${median(times).toFixed(1)} ms (5 runs)`,
  );
}

// 1. Load.
const loadStarted = performance.now();
const store = await run(openEvidenceStore("memory://"));
const summary = await run(store.importEthereumEtl(ethereumDirectory()));
console.log(`\n## load (PGlite in memory): ${(performance.now() - loadStarted).toFixed(0)} ms`);
for (const [table, counts] of Object.entries(summary.tables))
  console.log(`  ${table}: ${counts.read} read, ${counts.rejected} rejected`);

// 2. Detection over the generated claims.
const records = generateCitationClaims();
const layer = makeCitationsLayer({ store });
interface Tally {
  records: number;
  fabricatedNotFound: number;
  withMismatch: number;
  withNotFound: number;
  withError: number;
  withUncited: number;
  failed: number;
}
const tallies = new Map<ClaimCategory, Tally>();
const latencies: number[] = [];
const detectionStarted = performance.now();
for (const record of records) {
  const started = performance.now();
  const result = await run(
    layer.run({ text: record.response, claims: segmentClaims(record.response), evidence: [] }),
  );
  latencies.push(performance.now() - started);
  const codes = new Set((result.claims ?? []).flatMap((claim) => claim.issues.map((issue) => issue.code)));
  const checks = result.details.checks as { value: string; status: string }[];
  const tally = tallies.get(record.meta.category) ?? {
    records: 0,
    fabricatedNotFound: 0,
    withMismatch: 0,
    withNotFound: 0,
    withError: 0,
    withUncited: 0,
    failed: 0,
  };
  tally.records += 1;
  if (record.meta.fabricated !== undefined) {
    const check = checks.find((entry) => entry.value === record.meta.fabricated);
    if (check?.status === "NOT_FOUND") tally.fabricatedNotFound += 1;
  }
  if (codes.has("CITATION_MISMATCH")) tally.withMismatch += 1;
  if (codes.has("CITATION_NOT_FOUND")) tally.withNotFound += 1;
  if (codes.has("CITATION_ERROR")) tally.withError += 1;
  if (codes.has("UNCITED_CLAIM")) tally.withUncited += 1;
  if (!result.passed) tally.failed += 1;
  tallies.set(record.meta.category, tally);
}
console.log(
  `\n## detection: ${records.length} generated claims, ${(performance.now() - detectionStarted).toFixed(0)} ms, ` +
    `median ${median(latencies).toFixed(2)} ms per claim`,
);
console.log(
  "| category | claims | fabricated citation NOT_FOUND | with MISMATCH | with NOT_FOUND | with ERROR | layer failed |",
);
console.log("|---|---|---|---|---|---|---|");
for (const [category, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
  const fabricated = category.startsWith("fabricated") ? percent(t.fabricatedNotFound, t.records) : "-";
  console.log(
    `| ${category} | ${t.records} | ${fabricated} | ${percent(t.withMismatch, t.records)} | ${percent(t.withNotFound, t.records)} | ${percent(t.withError, t.records)} | ${percent(t.failed, t.records)} |`,
  );
}

// 3. Batched versus one query per citation.
const mixedCitations = (): ExtractedCitation[] => {
  // Real values only from the true claims (other categories carry fabricated addresses and blocks).
  const trueRecords = records.filter((r) => r.meta.category === "true");
  const transactions = trueRecords.map((r) => r.meta.transaction);
  const blocks = ["47218", "47219", "483920", "1755635", "17173049", "17173050"];
  const addresses = [
    ...new Set(
      trueRecords.flatMap((r) =>
        [...r.response.matchAll(/\[ADDR:(0x[0-9a-f]{40})\]/g)].map((m) => m[1] as string),
      ),
    ),
  ];
  const citations: ExtractedCitation[] = [];
  for (let index = 0; citations.length < 1000; index += 1) {
    const slot = index % 10;
    const [kind, value] =
      slot === 9
        ? ["transaction", `0x${index.toString(16).padStart(64, "f")}`]
        : slot % 3 === 0
          ? ["transaction", transactions[index % transactions.length] as string]
          : slot % 3 === 1
            ? ["address", addresses[index % addresses.length] as string]
            : ["block", blocks[index % blocks.length] as string];
    citations.push({ kind, value, raw: value, span: { start: 0, end: 0 }, surroundingText: "" });
  }
  return citations;
};
const citations = mixedCitations();

const compareBatching = async (name: string, evidence: EvidenceStore) => {
  const verifier = makeStoreVerifier(evidence);
  const batched: number[] = [];
  const single: number[] = [];
  let verifiedBatched = 0;
  let verifiedSingle = 0;
  for (let repetition = 0; repetition < 5; repetition += 1) {
    let started = performance.now();
    const checks = await run(verifier.verify(citations));
    batched.push(performance.now() - started);
    verifiedBatched = citations.filter(
      (c) => checks.get(citationKey(c.kind, c.value))?.status === "VERIFIED",
    ).length;
    started = performance.now();
    verifiedSingle = 0;
    for (const citation of citations) {
      const one = await run(verifier.verify([citation]));
      if (one.get(citationKey(citation.kind, citation.value))?.status === "VERIFIED") verifiedSingle += 1;
    }
    single.push(performance.now() - started);
  }
  const batchedMedian = median(batched);
  const singleMedian = median(single);
  console.log(
    `| ${name} | ${citations.length} | ${batchedMedian.toFixed(1)} ms | ${singleMedian.toFixed(1)} ms | ${(singleMedian / batchedMedian).toFixed(1)}x | ${verifiedBatched} / ${verifiedSingle} |`,
  );
};
console.log("\n## 1,000 mixed citations: batched vs one query per citation (median of 5)");
console.log(
  "| store | citations | batched | one query per citation | speed-up | verified (batched / single) |",
);
console.log("|---|---|---|---|---|---|");
await compareBatching("PGlite (in memory)", store);
if (withPostgres) {
  const postgres = storageBackends().find((backend) => backend.name === "postgres");
  if (postgres) {
    const scope = await run(Scope.make());
    try {
      const sql = await run(Scope.extend(postgres.open(), scope));
      const pgStore = await run(prepareEvidenceStore(sql));
      await run(pgStore.importEthereumEtl(ethereumDirectory()));
      await compareBatching("PostgreSQL 15 (127.0.0.1, pool)", pgStore);
    } catch (error) {
      console.log(`| PostgreSQL | skipped: ${(error as Error).message} |`);
    } finally {
      await run(Scope.close(scope, Exit.void));
    }
  }
}
await run(store.close);

// 4. The same claims through the eval harness and the CLI's verifier with --evidence.
if (withEval) {
  const directory = await mkdtemp(path.join(tmpdir(), "veracity-citations-bench-"));
  try {
    const db = path.join(directory, "evidence");
    const persisted = await run(openEvidenceStore(db));
    await run(persisted.importEthereumEtl(ethereumDirectory()));
    await run(persisted.close);
    const claimsFile = path.join(directory, "claims.jsonl");
    await writeFile(claimsFile, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
    const verifier = await buildVerifier({ evidence: db });
    const started = performance.now();
    const evaluation = await runEvaluation({
      files: [claimsFile],
      verify: verifier.verify,
      layers: ["citations"],
      onMalformed: "fail",
      maxRecords: 100_000,
      concurrency: 1,
    });
    const byId = new Map(records.map((record): [string, ClaimRecord] => [record.id, record]));
    const flagged = new Map<string, { records: number; flagged: number; errors: number }>();
    for (const prediction of evaluation.predictions) {
      const category = byId.get(prediction.id)?.meta.category ?? "unknown";
      const entry = flagged.get(category) ?? { records: 0, flagged: 0, errors: 0 };
      entry.records += 1;
      if (prediction.predicted) entry.flagged += 1;
      if (prediction.error !== undefined) entry.errors += 1;
      flagged.set(category, entry);
    }
    console.log(
      `\n## eval harness (--layers citations --evidence <PGlite dir>): ${evaluation.predictions.length} records, ${(performance.now() - started).toFixed(0)} ms`,
    );
    console.log("| category | records | flagged hallucinated | verification errors |");
    console.log("|---|---|---|---|");
    for (const [category, entry] of [...flagged].sort(([a], [b]) => a.localeCompare(b)))
      console.log(
        `| ${category} | ${entry.records} | ${percent(entry.flagged, entry.records)} | ${entry.errors} |`,
      );
    await verifier.close();
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
