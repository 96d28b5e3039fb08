import os from "node:os";
import { Effect } from "effect";
import { makeNumbersLayer } from "../src/numbers/index.js";
import type { LayerInput } from "../src/verification/layer.js";
import { buildBenchmark, type CommonRecord, loadArithmeticRecords, tatqaFile } from "./tatqa-perturb.js";

const layer = makeNumbersLayer();

const inputOf = (record: CommonRecord): LayerInput => ({
  text: record.response,
  claims: [
    { index: 0, text: record.response, span: { start: 0, end: record.response.length }, kind: "factual" },
  ],
  evidence: [{ index: 0, origin: "context", text: record.context ?? "" }],
  ...(record.question ? { question: record.question } : {}),
});

interface Flags {
  readonly orphanOrSuspicious: boolean;
  readonly anyIssue: boolean;
  readonly messages: readonly string[];
}

const flagsOf = (record: CommonRecord): Flags => {
  const result = Effect.runSync(layer.run(inputOf(record)));
  const issues = (result.claims ?? []).flatMap((claim) => claim.issues);
  const codes = issues.map((issue) => issue.code);
  return {
    orphanOrSuspicious: codes.some((code) => code === "ORPHAN_NUMBER" || code === "SUSPICIOUS_NUMBER"),
    anyIssue: codes.length > 0,
    messages: issues.map((issue) => `${issue.code}: ${issue.message}`),
  };
};

/** `VERACITY_LIST=false-alarms` or `misses`: what to print record by record, to study them. */
const listing = process.env.VERACITY_LIST;

const list = (record: CommonRecord, flags: Flags) => {
  const derivation = String(record.meta.derivation ?? "");
  const kind = record.label === "hallucinated" ? ` [${String(record.meta.perturbation)}]` : "";
  console.log(`- ${record.id}${kind}\n    ${record.response}\n    derivation: ${derivation}`);
  for (const message of flags.messages) console.log(`    ${message}`);
};

const percent = (part: number, whole: number) =>
  whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(2)}%`;

const accuracy = () => {
  const records = buildBenchmark(loadArithmeticRecords());
  const gold = records.filter((record) => record.label === "supported");
  const goldFlags = gold.map(flagsOf);
  if (listing === "false-alarms") {
    gold.forEach((record, i) => {
      const flags = goldFlags[i];
      if (flags?.orphanOrSuspicious) list(record, flags);
    });
  }
  const falseAlarms = goldFlags.filter((flags) => flags.orphanOrSuspicious).length;
  const anyIssue = goldFlags.filter((flags) => flags.anyIssue).length;
  console.log(`gold answers: ${gold.length}`);
  console.log(
    `  (a) flagged orphan or suspicious: ${falseAlarms} = ${percent(falseAlarms, gold.length)} (bar <= 3%)`,
  );
  console.log(
    `      flagged with any issue (incl. partial aggregation): ${anyIssue} = ${percent(anyIssue, gold.length)}`,
  );
  const byKind = new Map<string, { flagged: number; total: number }>();
  for (const record of records.filter((r) => r.label === "hallucinated")) {
    const kind = String(record.meta.perturbation);
    const entry = byKind.get(kind) ?? { flagged: 0, total: 0 };
    const flags = flagsOf(record);
    if (listing === "misses" && !flags.anyIssue) list(record, flags);
    byKind.set(kind, { flagged: entry.flagged + (flags.anyIssue ? 1 : 0), total: entry.total + 1 });
  }
  let flagged = 0;
  let total = 0;
  console.log("(b) detection of hallucinated variants (any numbers issue):");
  for (const [kind, entry] of byKind) {
    flagged += entry.flagged;
    total += entry.total;
    console.log(
      `  ${kind.padEnd(20)} ${entry.flagged}/${entry.total} = ${percent(entry.flagged, entry.total)}`,
    );
  }
  console.log(`  overall              ${flagged}/${total} = ${percent(flagged, total)} (bar >= 97%)`);
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

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

if (tatqaFile() === undefined) {
  console.log(
    "skipping accuracy: no tatqa.jsonl (set VERACITY_DATASETS_DIR or run veracity datasets fetch tatqa)",
  );
} else {
  accuracy();
}
console.log(
  `load average ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")} on ${os.cpus().length} cores`,
);
throughput();
