import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { calibrationPairs } from "../eval/calibration-data.js";
import { predictionFromResult } from "../eval/prediction.js";
import type { EvalRecord } from "../eval/record.js";
import { createVerifier } from "../facade/create-verifier.js";
import { makeCalibrator } from "./calibrator.js";

const record: EvalRecord = {
  id: "unit:1",
  dataset: "unit",
  task: "general",
  context: "Revenue was $48.2 million in 2023.",
  question: null,
  response: "Revenue was $48.2 million in 2023. The CEO is Marcus Lindqvist.",
  label: "hallucinated",
  spans: [],
  meta: {},
};

describe("calibration pairs from an eval run", () => {
  it("carry the raw layer score, not the calibrated one the decision used", async () => {
    // A calibration that moves every grounding score, so raw and calibrated differ.
    const calibration = { grounding: { a: -4, b: 3 } };
    const verifier = await createVerifier({ calibration });
    try {
      const result = await verifier.verify({ text: record.response, sources: [record.context!] });
      const grounding = result.layersRun.find((layer) => layer.layer === "grounding")!;
      const raw = grounding.details.rawScore as number;
      expect(grounding.score).toBeCloseTo(
        Effect.runSync(makeCalibrator(calibration).calibrate(raw, "grounding")),
        12,
      );
      expect(grounding.score).not.toBeCloseTo(raw, 3);
      const pairs = calibrationPairs([predictionFromResult(record, "tune", result, 1)]);
      expect(pairs.find((pair) => pair.layer === "grounding")).toEqual({
        layer: "grounding",
        score: raw,
        label: "hallucinated",
        id: "unit:1",
        dataset: "unit",
        split: "tune",
      });
    } finally {
      await verifier.close();
    }
  });
});
