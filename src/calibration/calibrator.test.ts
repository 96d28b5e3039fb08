import { Effect, Exit } from "effect";
import { describe, expect, it } from "vitest";
import { createVerifier } from "../facade/create-verifier.js";
import { CalibrationError } from "../model/errors.js";
import { makeCalibrator } from "./calibrator.js";
import { defaultPlattModels } from "./defaults.js";
import { applyPlatt } from "./platt.js";

describe("updating a calibrator's models", () => {
  it("replaces one layer's model for later calls and keeps the others", async () => {
    const calibrator = makeCalibrator();
    const snapshot = calibrator.models;
    await Effect.runPromise(calibrator.updateModel("nli", { a: 3, b: -1 }));
    expect(await Effect.runPromise(calibrator.calibrate(0.8, "nli"))).toBeCloseTo(
      applyPlatt({ a: 3, b: -1 }, 0.8),
      12,
    );
    expect(calibrator.models["semantic-entropy"]).toEqual(defaultPlattModels["semantic-entropy"]);
    // A reader that took the models earlier keeps a consistent view.
    expect(snapshot.nli).toEqual(defaultPlattModels.nli);
  });

  it("refuses a model that is not finite and keeps the one in use", async () => {
    const calibrator = makeCalibrator();
    const exit = await Effect.runPromiseExit(
      calibrator.updateModel("nli", { a: Number.POSITIVE_INFINITY, b: 0 }),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    expect(calibrator.models.nli).toEqual(defaultPlattModels.nli);
  });
});

describe("a verifier's updateCalibration", () => {
  const text = "The Eiffel Tower is 330 metres tall.";
  const sources = ["The Eiffel Tower in Paris is 330 metres tall."];
  const groundingOf = async (verifier: ReturnType<typeof createVerifier>) => {
    const result = await verifier.verify({ text, sources });
    const layer = result.layersRun.find((each) => each.layer === "grounding");
    if (layer === undefined) throw new Error("grounding did not run");
    return { score: layer.score, raw: layer.details.rawScore as number };
  };

  it("changes the scores of verifications that start afterwards", async () => {
    const verifier = createVerifier();
    try {
      const before = await groundingOf(verifier);
      expect(before.score).toBe(before.raw);
      await verifier.updateCalibration({ grounding: { a: 6, b: -2 } });
      const after = await groundingOf(verifier);
      expect(after.score).toBeCloseTo(applyPlatt({ a: 6, b: -2 }, after.raw), 12);
      expect(await verifier.calibrateConfidence(0.5, "grounding")).toBeCloseTo(
        applyPlatt({ a: 6, b: -2 }, 0.5),
        12,
      );
    } finally {
      await verifier.close();
    }
  });

  it("applies all of an update or none of it", async () => {
    const verifier = createVerifier();
    try {
      await expect(
        verifier.updateCalibration({ grounding: { a: 6, b: -2 }, nli: { a: Number.NaN, b: 0 } }),
      ).rejects.toBeInstanceOf(CalibrationError);
      const after = await groundingOf(verifier);
      expect(after.score).toBe(after.raw);
    } finally {
      await verifier.close();
    }
  });
});
