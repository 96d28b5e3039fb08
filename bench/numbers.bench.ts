/**
 * Numeric grounding benchmark: false alarms on TAT-QA gold answers, detection of hallucinated variants per
 * kind (see bench/tatqa-perturb.ts), and throughput for an answer with 20 numbers against a source with 200.
 *
 *   node --import tsx bench/numbers.bench.ts
 *   VERACITY_LIST=false-alarms node --import tsx bench/numbers.bench.ts   # also lists the flagged gold answers
 *   VERACITY_LIST=misses node --import tsx bench/numbers.bench.ts         # also lists the missed variants
 *
 * Bounded: one pass over the benchmark, then at most ~3 s of throughput timing.
 */
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { buildVerifier } from "../src/assembly/build-verifier.js";
import { makeNumbersLayer, validateNumbers } from "../src/checks/numbers/index.js";
import { runEvaluation } from "../src/eval/runner.js";
import type { LayerInput } from "../src/model/layer.js";
import { median } from "./libraries/statistics.js";
import { buildBenchmark, loadArithmeticRecords, perturbationKinds, tatqaFile } from "./tatqa-perturb.js";

const layer = makeNumbersLayer();

/** `VERACITY_LIST=false-alarms` or `misses`: print each flagged gold answer (or missed variant), to study them. */
const listing = process.env.VERACITY_LIST;

const percent = (part: number, whole: number) =>
  whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(2)}%`;

/**
 * Quality as a user sees it: `veracity eval --layers numbers` (the same runner and verifier) over the TAT-QA gold
 * arithmetic answers and their perturbed variants, in the answer form of tatqa.jsonl; an answer is flagged when
 * its verdict is not passed. Reported per perturbation kind, on each half of the tables and on the whole.
 */
const accuracy = async () => {
  const records = buildBenchmark(loadArithmeticRecords(), "answer");
  const file = path.join(os.tmpdir(), `veracity-numbers-bench-${process.pid}.jsonl`);
  writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
  const verifier = await buildVerifier({});
  const run = await runEvaluation({
    files: [file],
    verify: verifier.verify,
    layers: ["numbers"],
    onMalformed: "skip",
    maxRecords: 1_000_000,
    concurrency: 1,
  });
  await verifier.close();
  rmSync(file, { force: true });
  const byId = new Map(records.map((record) => [record.id, record]));
  const counts = new Map<string, { flagged: number; total: number }>();
  const count = (key: string, flagged: boolean) => {
    const entry = counts.get(key) ?? { flagged: 0, total: 0 };
    counts.set(key, { flagged: entry.flagged + (flagged ? 1 : 0), total: entry.total + 1 });
  };
  for (const prediction of run.predictions) {
    const record = byId.get(prediction.id);
    if (!record) continue;
    const kind = String(record.meta.perturbation ?? "gold");
    const wrong = kind === "gold" ? prediction.predicted : !prediction.predicted;
    if (
      (listing === "false-alarms" && kind === "gold" && wrong) ||
      (listing === "misses" && kind !== "gold" && wrong)
    )
      console.log(
        `- ${record.id} [${kind}] ${record.response} (derivation ${String(record.meta.derivation)})`,
      );
    for (const half of [String(record.meta.half), "whole"]) count(`${half}:${kind}`, prediction.predicted);
  }
  console.log("answer verdict of `veracity eval --layers numbers` (flagged = not passed):");
  console.log(`  ${"kind".padEnd(20)} ${["develop", "holdout", "whole"].map((h) => h.padEnd(22)).join(" ")}`);
  for (const kind of ["gold", ...perturbationKinds]) {
    const cells = ["develop", "holdout", "whole"].map((half) => {
      const entry = counts.get(`${half}:${kind}`) ?? { flagged: 0, total: 0 };
      return `${entry.flagged}/${entry.total} = ${percent(entry.flagged, entry.total)}`.padEnd(22);
    });
    console.log(`  ${kind.padEnd(20)} ${cells.join(" ")}`);
  }
  console.log("  bars: gold flagged <= 3%; every perturbation kind flagged >= 97%");
};

const itemNames = [
  "Revenue",
  "Cost of sales",
  "Gross profit",
  "Research and development",
  "Selling and marketing",
  "General and administrative",
  "Operating income",
  "Interest expense",
  "Other income",
  "Income tax",
  "Net income",
  "Depreciation",
  "Amortization",
  "Capital expenditure",
  "Free cash flow",
  "Inventory",
  "Receivables",
  "Payables",
  "Deferred revenue",
  "Goodwill",
  "Intangible assets",
  "Lease liabilities",
  "Long-term debt",
  "Cash",
  "Equity",
];

/** A source with 200 figures in a table, and an answer quoting or deriving 20 of them. */
const throughputInput = (): LayerInput => {
  const rows: string[] = [" | 2019 | 2018 | 2017 | 2016"];
  for (let row = 0; row < 50; row++) {
    const cells = [0, 1, 2, 3].map((column) =>
      (1_000 + ((row * 37 + column * 101) % 9_000) + column / 10).toFixed(1),
    );
    rows.push(
      `${itemNames[row % itemNames.length]} ${Math.floor(row / itemNames.length) === 0 ? "" : "(restated)"} | ${cells.join(" | ")}`,
    );
  }
  const source = `Table (in millions):\n${rows.join("\n")}`;
  const sentences: string[] = [];
  for (let i = 0; i < 10; i++) {
    const row = rows[1 + i * 4]?.split("|").map((cell) => cell.trim()) ?? [];
    const a = Number(row[1]);
    const b = Number(row[2]);
    sentences.push(
      `${row[0]} was $${a.toFixed(1)} million in 2019, a change of ${(((a - b) / b) * 100).toFixed(2)}% from 2018.`,
    );
  }
  const text = sentences.join(" ");
  let offset = 0;
  const claims = sentences.map((sentence, index) => {
    const start = text.indexOf(sentence, offset);
    offset = start + sentence.length;
    return { index, text: sentence, span: { start, end: start + sentence.length }, kind: "factual" as const };
  });
  return { text, claims, evidence: [{ index: 0, origin: "source", text: source }] };
};

/**
 * Runs `layer` on inputs from `next` for ~200 ms rounds (at most ~3 s). Returns the median answers per
 * wall-clock second and per CPU second of this process (user + system): on a shared machine the second is
 * what one core does, the first also counts the time other jobs take the core away.
 */
const measure = (next: () => LayerInput): { median: number; cpuMedian: number; rounds: number } => {
  const rounds: number[] = [];
  const cpuRounds: number[] = [];
  const deadline = performance.now() + 3_000;
  while (performance.now() < deadline && rounds.length < 15) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let runs = 0;
    while (performance.now() - started < 200) {
      Effect.runSync(layer.run(next()));
      runs += 1;
    }
    const cpu = process.cpuUsage(cpuStarted);
    rounds.push((runs * 1000) / (performance.now() - started));
    cpuRounds.push((runs * 1e6) / Math.max(1, cpu.user + cpu.system));
  }
  return { median: median(rounds), cpuMedian: median(cpuRounds), rounds: rounds.length };
};

const throughput = () => {
  const input = throughputInput();
  const check = Effect.runSync(layer.run(input));
  const validation = check.details.validation as { numbers: unknown[] };
  console.log(`throughput input: ${validation.numbers.length} answer numbers, passed=${check.passed}`);
  const warm = measure(() => input);
  console.log(
    `throughput, same source each time (evidence read once, cached): median ${warm.median.toFixed(0)} answers/s wall-clock, ${warm.cpuMedian.toFixed(0)} per CPU second, over ${warm.rounds} rounds (bar >= 200)`,
  );
  let serial = 0;
  const cold = measure(() => {
    serial += 1;
    const source = input.evidence[0]?.text ?? "";
    return { ...input, evidence: [{ index: 0, origin: "source", text: `${source}\nrevision ${serial}` }] };
  });
  console.log(
    `throughput, a new source each time (no cache hit): median ${cold.median.toFixed(0)} answers/s wall-clock, ${cold.cpuMedian.toFixed(0)} per CPU second, over ${cold.rounds} rounds (bar >= 200)`,
  );
};

/**
 * A 10 MB filing with 200,000 figures (tables of five rows by four years, each with a line of commentary),
 * and an answer of 100 figures taken from its last tables: every figure must trace, so the filing is read
 * whole. Reports the time of one validation and the memory it took (resident set growth and heap after).
 */
const wholeFiling = () => {
  const parts: string[] = [];
  let figures = 0;
  let table = 0;
  const answerFigures: string[] = [];
  const cell = (t: number, r: number, c: number) =>
    1_000 + ((t * 7_919 + r * 104_729 + c * 1_299_709) % 900_000);
  while (figures < 200_000) {
    const last = figures >= 200_000 - 21 * 20;
    const rows = ["Segment results (in thousands)", "Table:", " | 2019 | 2018 | 2017 | 2016"];
    for (let r = 0; r < 5; r++) {
      // The last tables' 2019 figures are the only ones above 950,000: the answer's figures are found there or nowhere.
      const first = last ? 950_000 + table * 5 + r : cell(table, r, 0);
      if (last) answerFigures.push(first.toLocaleString("en-US"));
      const cells = [first, cell(table, r, 1), cell(table, r, 2), cell(table, r, 3)];
      rows.push(`${itemNames[r]} | ${cells.map((v) => v.toLocaleString("en-US")).join(" | ")}`);
    }
    rows.push(
      `Commentary: the segment's figures are reviewed by the audit committee, see page ${table % 300}.`,
    );
    parts.push(rows.join("\n"));
    figures += 21;
    table += 1;
  }
  let text = parts.join("\n\n");
  const filler =
    "\nNarrative of operations and risks, without figures, as an annual report has many pages of.";
  while (text.length < 10_000_000) text += filler;
  const answer = answerFigures
    .slice(-100)
    .map((figure) => `One of the last segments' items was ${figure} thousand.`)
    .join(" ");
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const result = validateNumbers({ text: answer, evidence: [{ index: 0, origin: "source", text }] });
  const seconds = (performance.now() - started) / 1000;
  const rssAfter = process.memoryUsage().rss;
  const traced = result.numbers.filter((n) => n.status === "exact" || n.status === "close").length;
  console.log(
    `whole filing: ${(text.length / 1e6).toFixed(1)} MB, ${figures} figures; answer of ${result.numbers.length} numbers: ${traced} traced, skipped ${result.skipped}, source truncated ${result.sourceTruncated === true}; ${seconds.toFixed(1)} s, resident memory +${((rssAfter - rssBefore) / 1e6).toFixed(0)} MB (peak RSS ${(process.resourceUsage().maxRSS / 1e3).toFixed(0)} MB), heap used after ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  );
};

if (tatqaFile() === undefined) {
  console.log(
    "skipping accuracy: no tatqa.jsonl (set VERACITY_DATASETS_DIR or run veracity datasets fetch tatqa)",
  );
} else {
  await accuracy();
}
console.log(
  `load average ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`,
);
throughput();
wholeFiling();
