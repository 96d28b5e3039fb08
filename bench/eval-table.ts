/**
 * Regenerates the detection table of docs/BENCHMARKS.md: runs the offline verifier (the CLI's default
 * layers) over every labelled file and writes the table between the markers `<!-- eval-table:start -->` and
 * `<!-- eval-table:end -->` (appended when absent).
 *
 *   npm run bench:eval                               # write docs/BENCHMARKS.md
 *   node --import tsx bench/eval-table.ts --stdout   # print only
 *
 * Data: the `*.jsonl` files of VERACITY_DATASETS_DIR when set, else the labelled datasets fetched into the
 * cache (`veracity datasets fetch summedits begin tatqa halueval --trust-unpinned`). See docs/EVALUATION.md.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { resolve } from "node:path";
import { buildVerifier } from "../src/assembly/build-verifier.js";
import { shippedCombiner } from "../src/calibration/combiner/shipped-combiner.js";
import { benchmarkData, howToGetData } from "../src/datasets/benchmark-data.js";
import { datasets } from "../src/datasets/registry.js";
import type { GroupMetrics } from "../src/eval/metrics/summary.js";
import { buildReport } from "../src/eval/report/json-report.js";
import { runEvaluation } from "../src/eval/runner.js";

const repoRoot = resolve(import.meta.dirname, "..");
const fromDevelopmentCopy = (process.env.VERACITY_DATASETS_DIR ?? "").trim() !== "";
const { source, files } = benchmarkData(process.env);
if (files.length === 0) {
  process.stderr.write(`no labelled data in ${source}: ${howToGetData}\n`);
  process.exit(2);
}
/** Where the records came from, without machine-specific paths: the dataset names and their source commits. */
const dataOrigin = fromDevelopmentCopy
  ? `the *.jsonl files of VERACITY_DATASETS_DIR (${files.map((file) => file.replace(/^.*[/\\]/, "")).join(", ")})`
  : `the fetched datasets ${datasets
      .filter(
        (spec) =>
          spec.evalFile !== undefined && files.some((file) => file.endsWith(`${spec.name}/${spec.evalFile}`)),
      )
      .map((spec) => `${spec.name} (${spec.repository}@${spec.commit.slice(0, 7)})`)
      .join(", ")}`;

const cell = (value: number | undefined): string => (value === undefined ? "n/a" : value.toFixed(3));
const row = (name: string, m: GroupMetrics): string =>
  `| ${name} | ${m.n} | ${m.negatives} / ${m.positives} | ${cell(m.precision)} | ${cell(m.recall)} | ${cell(m.f1)} | ${cell(m.fpr)} | ${cell(m.balancedAccuracy)} | ${cell(m.auroc)} | ${cell(m.hallucinationRate)} | ${m.spans.records === 0 ? "n/a" : cell(m.spans.f1)} | ${cell(m.calibration.ece)} | ${cell(m.calibration.brier)} | ${m.latency.p50Ms?.toFixed(1) ?? "n/a"} / ${m.latency.p95Ms?.toFixed(1) ?? "n/a"} |`;

const verifier = await buildVerifier({});
const started = performance.now();
const run = await runEvaluation({
  files,
  verify: verifier.verify,
  onMalformed: "skip",
  maxRecords: 1_000_000,
  concurrency: 1,
});
const seconds = (performance.now() - started) / 1000;
await verifier.close();
const report = buildReport(run);

const layers = [
  ...new Set(run.predictions.flatMap((prediction) => prediction.layerScores.map((layer) => layer.layer))),
].join(", ");
/** Verdict shares and the coverage of checked claims, per data set. */
const verdictShares = Object.keys(report.datasets).map((name) => {
  const members = run.predictions.filter((prediction) => prediction.dataset === name);
  const share = (verdict: string) =>
    (
      members.filter((prediction) => prediction.verdict === verdict).length / Math.max(1, members.length)
    ).toFixed(3);
  return `| ${name} | ${share("fail")} | ${share("warn")} | ${share("pass")} | ${share("unverified")} |`;
});

/**
 * The trade-off a user can choose with \`veracity calibrate --target-fpr\`: the answer fails on a rule (a
 * contradicted or wholly unsupported claim) or when its combined score reaches the threshold.
 */
const thresholds = [0.5, 0.6, 0.7, 0.8, Number(shippedCombiner.failThreshold.toFixed(4))];
const tradeOff = Object.keys(report.datasets).flatMap((name) => {
  const members = run.predictions.filter((prediction) => prediction.dataset === name && prediction.answer);
  const negatives = members.filter((prediction) => prediction.label === "supported").length;
  const positives = members.length - negatives;
  return thresholds.map((threshold) => {
    const flagged = members.filter(
      (prediction) => prediction.answer!.failsByRule || prediction.score >= threshold,
    );
    const truePositives = flagged.filter((prediction) => prediction.label === "hallucinated").length;
    const precision = flagged.length === 0 ? undefined : truePositives / flagged.length;
    const recall = positives === 0 ? undefined : truePositives / positives;
    const fpr = negatives === 0 ? undefined : (flagged.length - truePositives) / negatives;
    return `| ${name} | ${threshold}${threshold === thresholds.at(-1) ? " (shipped)" : ""} | ${cell(precision)} | ${cell(recall)} | ${cell(fpr)} |`;
  });
});

const table = [
  `Offline verifier (layers that ran: ${layers || "none"}), default settings: an answer is flagged when its verdict is \`fail\`; hallucinated = positive; AUROC ranks answers by the combined hallucination score.`,
  `Generated by \`npm run bench:eval\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores, from ${dataOrigin}; ${run.predictions.length} records in ${seconds.toFixed(1)} s; ${run.malformed.length} malformed lines.`,
  "",
  "| dataset | n | supported / hallucinated | precision | recall | F1 | FPR | balanced acc. | AUROC | flagged share | span F1 | ECE | Brier | p50 / p95 ms |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...Object.entries(report.datasets).map(([name, metrics]) => row(name, metrics)),
  row("**overall**", report.overall),
  "",
  "Answer verdicts (share of records):",
  "",
  "| dataset | fail | warn | pass | unverified |",
  "|---|---|---|---|---|",
  ...verdictShares,
  "",
  "Trade-off by fail threshold on the combined score (rules always fail; answers some layer judged):",
  "",
  "| dataset | threshold | precision | recall | FPR |",
  "|---|---|---|---|---|",
  ...tradeOff,
].join("\n");

if (process.argv.includes("--stdout")) {
  process.stdout.write(`${table}\n`);
} else {
  const path = resolve(repoRoot, "docs/BENCHMARKS.md");
  const start = "<!-- eval-table:start -->";
  const end = "<!-- eval-table:end -->";
  const block = `${start}\n${table}\n${end}`;
  const current = existsSync(path) ? readFileSync(path, "utf8") : "# Benchmarks\n";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n## Detection on the public benchmarks\n\n${block}\n`;
  writeFileSync(path, next);
  process.stdout.write(`${table}\n\nwritten to ${path}\n`);
}
