import { Either } from "effect";
import { describe, expect, it } from "vitest";
import { calibrationFileJson, parseCalibrationFile } from "./file.js";
import { defaultCalibrationSplits, fitLayerCalibrations, type LayerScorePair } from "./fit-layers.js";
import { parseCalibrationPairs } from "./pairs-file.js";

/** An overconfident layer: its raw score says 0.9 where only 60% of records are supported, and so on. */
const pairs: LayerScorePair[] = Array.from({ length: 400 }, (_, index) => {
  const high = index % 2 === 0;
  const supported = high ? index % 10 < 6 : index % 10 === 1;
  return {
    layer: "nli",
    score: high ? 0.9 : 0.2,
    label: supported ? "supported" : "hallucinated",
    id: `record-${index}`,
    split: index < 200 ? "tune" : "report",
  };
});

const run = () => {
  const result = fitLayerCalibrations(pairs, { ...defaultCalibrationSplits, declared: true });
  if (Either.isLeft(result)) throw new Error(result.left.message);
  return result.right;
};

describe("fitLayerCalibrations", () => {
  it("fits on the tuning split and lowers ECE on the report split", () => {
    const { layers, models } = run();
    expect(layers).toHaveLength(1);
    const [nli] = layers;
    expect(nli?.tuneCount).toBe(200);
    expect(nli?.before.count).toBe(200);
    expect(nli!.after.ece!).toBeLessThan(nli!.before.ece!);
    expect(nli!.after.brier!).toBeLessThan(nli!.before.brier!);
    expect(models.nli).toBeDefined();
  });

  it("skips unknown layers and layers without both labels, and says why", () => {
    const extra: LayerScorePair[] = [
      ...pairs,
      { layer: "made-up", score: 0.5, label: "supported", id: "x", split: "tune" },
      ...Array.from({ length: 30 }, (_, index) => ({
        layer: "self-consistency",
        score: 0.5,
        label: "supported" as const,
        id: `n-${index}`,
        split: "tune",
      })),
    ];
    const result = fitLayerCalibrations(extra, { ...defaultCalibrationSplits, declared: true });
    expect(Either.isRight(result) && result.right.skipped.map((entry) => entry.layer)).toEqual([
      "made-up",
      "self-consistency",
    ]);
  });

  it("never remaps an evidence layer: the answer verdict reads its claims, not its score", () => {
    const evidence = pairs.map((pair) => ({ ...pair, layer: "numbers" }));
    const result = Either.getOrThrow(
      fitLayerCalibrations([...pairs, ...evidence], { ...defaultCalibrationSplits, declared: true }),
    );
    expect(result.models.numbers).toBeUndefined();
    expect(result.skipped).toEqual([
      {
        layer: "numbers",
        reason: "an evidence layer: its claims and signals feed the answer combiner instead",
      },
    ]);
  });

  it("fits nothing, and says why, when no layer has enough samples", () => {
    const result = Either.getOrThrow(
      fitLayerCalibrations(pairs.slice(0, 5), { ...defaultCalibrationSplits, declared: true }),
    );
    expect(result.layers).toHaveLength(0);
    expect(result.skipped[0]?.reason).toMatch(/needs at least 20 tuning samples/);
  });
});

describe("calibration files", () => {
  it("round-trips the fitted models through the JSON file", () => {
    const fitted = run();
    const text = calibrationFileJson(fitted, { source: "test", createdAt: "2026-11-22T00:00:00Z" });
    expect(Either.getOrThrow(parseCalibrationFile(text))).toEqual(fitted.models);
    expect(JSON.parse(text).quality.nli.after.ece).toBeTypeOf("number");
  });

  it.each([
    ["not JSON", "{"],
    ["no layers", "{}"],
    ["an unknown layer", '{"layers":{"nope":{"a":1,"b":0}}}'],
    ["a missing parameter", '{"layers":{"nli":{"a":1}}}'],
  ])("refuses %s", (_, text) => {
    expect(Either.isLeft(parseCalibrationFile(text))).toBe(true);
  });

  it("reads eval calibration pairs and names a malformed line", () => {
    const good = '{"layer":"grounding","score":0.4,"label":"supported","id":"a","dataset":"d"}\n';
    expect(Either.getOrThrow(parseCalibrationPairs(good))).toEqual([
      { layer: "grounding", score: 0.4, label: "supported", id: "a" },
    ]);
    const bad = parseCalibrationPairs(
      `${good}{"layer":"grounding","score":2,"label":"supported","id":"b"}\n`,
    );
    expect(Either.isLeft(bad) && bad.left.message).toMatch(/^line 2:/);
  });
});
