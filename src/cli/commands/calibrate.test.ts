import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCalibrationFile } from "../../assembly/build-verifier.js";
import { answerFeatureNames, answerFeatures } from "../../calibration/combiner/answer-features.js";
import { hallucinationProbability } from "../../calibration/combiner/combiner.js";
import type { VerificationResult } from "../../model/result.js";
import { UsageError } from "../command.js";
import { runCli } from "../run-cli.js";
import { capturingIO, runCliIn } from "../testing.js";
import { calibrateCommand } from "./calibrate.js";

let dir: string;
/** The CLI's output, in memory, run in `dir`. */
const inDir = () => capturingIO(dir);

/** An overconfident NLI layer: raw 0.9 is right 60% of the time, raw 0.2 only 10%; and a grounding layer. */
const pairsJsonl = Array.from({ length: 400 }, (_, index) => {
  const high = index % 2 === 0;
  const supported = high ? index % 10 < 6 : index % 10 === 1;
  return [
    JSON.stringify({
      layer: "nli",
      score: high ? 0.9 : 0.2,
      label: supported ? "supported" : "hallucinated",
      id: `r${index}`,
      dataset: "synthetic",
    }),
    JSON.stringify({ layer: "grounding", score: high ? 0.9 : 0.2, label: "supported", id: `r${index}` }),
  ].join("\n");
}).join("\n");

/** Labelled answers of one data set: hallucinated ones miss more of their words from the best passage. */
const combinerJsonl = Array.from({ length: 400 }, (_, index) => {
  const hallucinated = index % 3 === 0;
  const features = Object.fromEntries(answerFeatureNames.map((name) => [name, 0]));
  features.missingFromBestPassageMean = (hallucinated ? 0.4 : 0.1) + ((index * 37) % 100) / 250;
  return JSON.stringify({
    id: `a${index}`,
    dataset: "mine",
    label: hallucinated ? "hallucinated" : "supported",
    failsByRule: false,
    features,
  });
}).join("\n");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-calibrate-"));
  await writeFile(join(dir, "calibration-data.jsonl"), `${pairsJsonl}\n`);
  await writeFile(join(dir, "combiner-data.jsonl"), `${combinerJsonl}\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const check = async (...extra: string[]) => {
  const { io, out } = inDir();
  const code = await runCli(
    ["check", "answer.md", "--source", "source.md", "--format", "json", ...extra],
    io,
  );
  return { code, result: code === 2 ? undefined : (JSON.parse(out.join("")) as VerificationResult) };
};

describe("veracity calibrate", () => {
  it("fits model-backed layers and the combiner from an eval --out directory, and leaves evidence layers alone", async () => {
    const { io, out } = inDir();
    expect(await calibrateCommand.run(["--from", ".", "--out", "calibration.json"], io)).toBe(0);
    const text = out.join("");
    expect(text).toMatch(/nli: a=-?\d/);
    expect(text).toMatch(/before {2}ECE \d\.\d{4}/);
    expect(text).toMatch(/skipped grounding: an evidence layer/);
    expect(text).toMatch(/combiner: fail threshold 0\.\d+ for a false-alarm rate of at most 0\.1/);
    const { layers, combiner } = await readCalibrationFile(join(dir, "calibration.json"));
    expect(Object.keys(layers)).toEqual(["nli"]);
    const written = JSON.parse(await readFile(join(dir, "calibration.json"), "utf8"));
    expect(written.quality.nli.after.ece).toBeLessThan(written.quality.nli.before.ece);
    expect(written.combinerQuality.tune.falseAlarmRate).toBeLessThanOrEqual(0.1);
    expect(combiner?.failThreshold).toBeGreaterThan(0);
  });

  it("--target-fpr moves the operating point: a lower target, a higher fail threshold", async () => {
    expect(
      await calibrateCommand.run(["--from", ".", "--out", "loose.json", "--target-fpr", "0.3"], inDir().io),
    ).toBe(0);
    expect(
      await calibrateCommand.run(["--from", ".", "--out", "tight.json", "--target-fpr", "0.02"], inDir().io),
    ).toBe(0);
    const loose = (await readCalibrationFile(join(dir, "loose.json"))).combiner!;
    const tight = (await readCalibrationFile(join(dir, "tight.json"))).combiner!;
    expect(tight.failThreshold).toBeGreaterThan(loose.failThreshold);
  });

  it("its combiner decides `check --calibration`, evidence layers keep their scores, and a broken file is a usage error", async () => {
    expect(await calibrateCommand.run(["--from", ".", "--out", "fitted.json"], inDir().io)).toBe(0);
    const { combiner } = await readCalibrationFile(join(dir, "fitted.json"));
    await writeFile(join(dir, "answer.md"), "Revenue was $48.2 million in 2023, up from the year before.");
    await writeFile(join(dir, "source.md"), "In 2023 the company's revenue was $48.2 million.");
    const raw = (await check()).result!;
    const calibrated = (await check("--calibration", join(dir, "fitted.json"))).result!;
    expect(calibrated.hallucinationScore).toBeCloseTo(
      hallucinationProbability(combiner!, answerFeatures(calibrated.claims, calibrated.layersRun)),
      12,
    );
    expect(calibrated.hallucinationScore).not.toBeCloseTo(raw.hallucinationScore!, 3);
    for (const name of ["grounding", "numbers"] as const) {
      const before = raw.layersRun.find((layer) => layer.layer === name)!;
      const after = calibrated.layersRun.find((layer) => layer.layer === name)!;
      expect(after.score).toBe(before.score);
    }
    await writeFile(join(dir, "broken.json"), '{"layers":{},"combiner":{"version":1,"features":["x"]}}');
    expect((await check("--calibration", join(dir, "broken.json"))).code).toBe(2);
  });

  it.each([
    [["--out", "x.json"]],
    [["--from", "missing.jsonl", "--out", "x.json"]],
    [["--from", ".", "--out", "x.json", "--tune-on", "a", "--report-on", "a"]],
  ])("is a usage error: %j", async (argv) => {
    await expect(calibrateCommand.run(argv, inDir().io)).rejects.toBeInstanceOf(UsageError);
  });
});

describe("veracity calibrate: progress", () => {
  it("shows each of its four steps on a terminal's stderr and clears the line before the summary", async () => {
    const result = await runCliIn(["calibrate", "--from", ".", "--out", "steps.json"], dir, {
      stderrIsTTY: true,
    });
    expect(result.code).toBe(0);
    const steps = [...result.stderr.matchAll(/calibrate \[(\d)\/4\]/g)].map((match) => match[1]);
    expect(steps).toEqual(["1", "2", "3", "4"]);
    expect(result.stderr).toContain("fitting the answer combiner on");
    expect(result.stderr.endsWith("\r\x1b[2K")).toBe(true);
    expect(result.stdout).toContain("combiner: fail threshold");
  });

  it.each([
    ["stderr is not a terminal", [], false],
    ["--quiet", ["--quiet"], true],
  ])("shows nothing when %s", async (_, flags, stderrIsTTY) => {
    const result = await runCliIn(["calibrate", "--from", ".", "--out", "quiet.json", ...flags], dir, {
      stderrIsTTY,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });
});
