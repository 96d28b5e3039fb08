/**
 * `npm run bench`: throughput and latency of `verify` with the offline layers for a 1 KB answer against
 * 10 KB of sources, on one core, and the CLI's peak RSS. Bars: >= 500 answers/s; CLI peak RSS < 150 MB.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { makeGroundingLayer } from "../src/checks/grounding/index.js";
import { makeNumbersLayer, makeSourcesCache } from "../src/checks/numbers/index.js";
import { createVerifier } from "../src/facade/create-verifier.js";
import type { VerificationLayer } from "../src/model/layer.js";
import { lcg } from "./libraries/seeded.js";
import { median, percentileOfSorted } from "./libraries/statistics.js";

const repoRoot = resolve(import.meta.dirname, "..");

/** 10 KB of report-like source text and 1 KB answers drawn from it with edits (seeded, deterministic). */
const makeCorpus = (seed: number) => {
  const random = lcg(seed);
  const subjects = [
    "Revenue",
    "Operating income",
    "Net sales",
    "Gross margin",
    "Headcount",
    "Capital spending",
  ];
  const units = ["North", "South", "Retail", "Wholesale", "Cloud", "Devices", "Services", "Logistics"];
  const verbs = ["rose", "fell", "grew", "declined", "increased", "decreased"];
  const sentence = () =>
    `${subjects[Math.floor(random() * subjects.length)]} of the ${units[Math.floor(random() * units.length)]} division ${verbs[Math.floor(random() * verbs.length)]} to $${(random() * 900 + 10).toFixed(1)} million in the ${["first", "second", "third", "fourth"][Math.floor(random() * 4)]} quarter of ${2019 + Math.floor(random() * 6)}, according to chief financial officer ${["Dana Okafor", "Lee Park", "Ana Silva"][Math.floor(random() * 3)]}.`;
  const sourceSentences: string[] = [];
  while (sourceSentences.join(" ").length < 10_240) sourceSentences.push(sentence());
  const answers: string[] = [];
  for (let i = 0; i < 64; i++) {
    const parts: string[] = [];
    while (parts.join(" ").length < 1_024) {
      const picked = sourceSentences[Math.floor(random() * sourceSentences.length)] ?? "";
      parts.push(random() < 0.3 ? picked.replace(/\d/, String(Math.floor(random() * 10))) : picked);
    }
    answers.push(parts.join(" ").slice(0, 1_100));
  }
  return { source: sourceSentences.join(" "), answers };
};

type LayerFactory = () => VerificationLayer[];

const verifyBench = async (layers: LayerFactory, rounds: number, calls: number) => {
  const { source, answers } = makeCorpus(42);
  const verifier = createVerifier({ layers: layers() });
  const request = (i: number) => ({
    text: answers[i % answers.length] ?? "",
    sources: [source],
    riskOverride: "low" as const,
  });
  for (let i = 0; i < Math.min(200, calls); i++) await verifier.verify(request(i));
  const results: { throughput: number; cpuThroughput: number; p50: number; p99: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const latencies: number[] = [];
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      await verifier.verify(request(i));
      latencies.push(performance.now() - t0);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    latencies.sort((a, b) => a - b);
    results.push({
      throughput: calls / seconds,
      cpuThroughput: calls / cpuSeconds,
      p50: percentileOfSorted(latencies, 50),
      p99: percentileOfSorted(latencies, 99),
    });
  }
  await verifier.close();
  return {
    throughput: median(results.map((result) => result.throughput)),
    cpuThroughput: median(results.map((result) => result.cpuThroughput)),
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
  };
};

/** Cold: every index is rebuilt on every call, as when each answer comes with new sources. */
const noCache = { entries: 0, characters: 0 };
const configurations: { name: string; layers: LayerFactory; rounds: number; calls: number }[] = [
  {
    name: "grounding, cold (source index rebuilt every call)",
    layers: () => [makeGroundingLayer({}, noCache)],
    rounds: 5,
    calls: 1000,
  },
  {
    name: "grounding, cached (same sources every call)",
    layers: () => [makeGroundingLayer()],
    rounds: 5,
    calls: 1000,
  },
  {
    name: "grounding + numbers (the default offline layers), cold",
    layers: () => [
      makeGroundingLayer({}, noCache),
      makeNumbersLayer({ readSources: makeSourcesCache({ capacity: 0 }) }),
    ],
    rounds: 3,
    calls: 300,
  },
  {
    name: "grounding + numbers (the default offline layers), cached",
    layers: () => [makeGroundingLayer(), makeNumbersLayer()],
    rounds: 5,
    calls: 1000,
  },
];

const cliPeakRss = () => {
  const bin = join(repoRoot, "dist/cli/main.js");
  if (!existsSync(bin) || !existsSync("/usr/bin/time")) return undefined;
  const { source, answers } = makeCorpus(7);
  const dir = mkdtempSync(join(tmpdir(), "veracity-bench-"));
  writeFileSync(join(dir, "source.md"), source);
  writeFileSync(join(dir, "answer.md"), answers[0] ?? "");
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const run = spawnSync(
      "/usr/bin/time",
      [
        "-f",
        "%M",
        process.execPath,
        bin,
        "check",
        join(dir, "answer.md"),
        "--source",
        join(dir, "source.md"),
        "--format",
        "json",
      ],
      { encoding: "utf8" },
    );
    const kilobytes = Number(run.stderr.trim().split("\n").at(-1));
    if (Number.isFinite(kilobytes)) runs.push(kilobytes / 1024);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)];
};

const only = process.argv.slice(2);
console.log(
  `machine: ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
const corpus = makeCorpus(42);
console.log(
  `verify, ${corpus.answers[0]?.length ?? 0} B answers vs ${corpus.source.length} B sources (number-dense report text), one core:`,
);
for (const configuration of configurations) {
  if (only.length > 0 && !only.some((word) => configuration.name.includes(word))) continue;
  const result = await verifyBench(configuration.layers, configuration.rounds, configuration.calls);
  console.log(
    `  ${configuration.name}: ${result.throughput.toFixed(0)} answers/s wall (${result.cpuThroughput.toFixed(0)} per CPU-second), p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms (median of ${configuration.rounds} rounds x ${configuration.calls})`,
  );
}
const rss = cliPeakRss();
console.log(
  rss === undefined
    ? "CLI peak RSS: not measured (run npm run build; needs /usr/bin/time)"
    : `CLI peak RSS (veracity check, median of 5): ${rss.toFixed(1)} MB (bar < 150 MB)`,
);
