import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlatt } from "../../calibration/platt.js";
import type { VerificationResult } from "../../model/result.js";
import { readCalibrationFile } from "../build-verifier.js";
import { type CliIO, UsageError } from "../command.js";
import { runCli } from "../run-cli.js";
import { calibrateCommand } from "./calibrate.js";

let dir: string;
const io = (): { value: CliIO; out: string[] } => {
  const out: string[] = [];
  return {
    out,
    value: {
      stdout: (text) => out.push(text),
      stderr: () => {},
      readStdin: async () => "",
      isTTY: false,
      cwd: dir,
      env: {},
    },
  };
};

/** An overconfident grounding layer: raw 0.9 is right 60% of the time, raw 0.2 only 10%. */
const pairsJsonl = Array.from({ length: 400 }, (_, index) => {
  const high = index % 2 === 0;
  const supported = high ? index % 10 < 6 : index % 10 === 1;
  return JSON.stringify({
    layer: "grounding",
    score: high ? 0.9 : 0.2,
    label: supported ? "supported" : "hallucinated",
    id: `r${index}`,
    dataset: "synthetic",
  });
}).join("\n");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-calibrate-"));
  await writeFile(join(dir, "calibration-data.jsonl"), `${pairsJsonl}\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("veracity calibrate", () => {
  it("fits from an eval --out directory, writes a file verify/check can load, and reports ECE", async () => {
    const { value, out } = io();
    expect(await calibrateCommand.run(["--from", ".", "--out", "calibration.json"], value)).toBe(0);
    const text = out.join("");
    expect(text).toMatch(/grounding: a=-?\d/);
    expect(text).toMatch(/before {2}ECE \d\.\d{4}/);
    const models = await readCalibrationFile(join(dir, "calibration.json"));
    expect(Object.keys(models)).toEqual(["grounding"]);
    const written = JSON.parse(await readFile(join(dir, "calibration.json"), "utf8"));
    expect(written.quality.grounding.after.ece).toBeLessThan(written.quality.grounding.before.ece);
  });

  it("its file changes what `check --calibration` reports, and a broken file is a usage error", async () => {
    expect(await calibrateCommand.run(["--from", ".", "--out", "fitted.json"], io().value)).toBe(0);
    const model = (await readCalibrationFile(join(dir, "fitted.json"))).grounding!;
    await writeFile(join(dir, "answer.md"), "Revenue was $48.2 million in 2023.");
    await writeFile(join(dir, "source.md"), "In 2023 the company's revenue was $48.2 million.");
    const check = async (...extra: string[]) => {
      const { value, out } = io();
      const args = [
        "check",
        "answer.md",
        "--source",
        "source.md",
        "--layers",
        "grounding",
        "--format",
        "json",
      ];
      const code = await runCli([...args, ...extra], value);
      return { code, result: code === 2 ? undefined : (JSON.parse(out.join("")) as VerificationResult) };
    };
    const raw = (await check()).result!;
    const calibrated = (await check("--calibration", join(dir, "fitted.json"))).result!;
    const rawGrounding = raw.layersRun.find((layer) => layer.layer === "grounding")!;
    const calibratedGrounding = calibrated.layersRun.find((layer) => layer.layer === "grounding")!;
    // Without a calibration the evidence layer's score is its raw score; with one, Platt's map of it.
    expect(calibratedGrounding.details.rawScore).toBeCloseTo(rawGrounding.score, 12);
    expect(calibratedGrounding.score).toBeCloseTo(applyPlatt(model, rawGrounding.score), 12);
    expect(calibratedGrounding.score).not.toBeCloseTo(rawGrounding.score, 2);
    await writeFile(join(dir, "broken.json"), '{"layers":{"grounding":{"a":"x"}}}');
    expect((await check("--calibration", join(dir, "broken.json"))).code).toBe(2);
  });

  it.each([
    [["--out", "x.json"]],
    [["--from", "missing.jsonl", "--out", "x.json"]],
    [["--from", ".", "--out", "x.json", "--tune-on", "a", "--report-on", "a"]],
  ])("is a usage error: %j", async (argv) => {
    await expect(calibrateCommand.run(argv, io().value)).rejects.toBeInstanceOf(UsageError);
  });
});
