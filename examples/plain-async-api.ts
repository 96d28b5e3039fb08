/**
 * Every capability through plain async functions and typed results, without Effect: verify an answer, ask
 * for its mitigation, calibrate a layer's score, run the correction loop, validate a golden answer and score
 * an on-chain analysis report.
 *
 *   node --import tsx examples/plain-async-api.ts
 */
import { pathToFileURL } from "node:url";
import { correctAnswer, createVerifier } from "veracity";
import { scoreFinding, scoreReport } from "veracity/citations";
import { validateAnswer } from "veracity/eval";

const source = "Northwind opened its second assembly plant in Tampere, Finland, in August 2023.";

export const main = async () => {
  const verifier = createVerifier({ calibration: { grounding: { a: -4, b: 2 } } });
  try {
    // 1. Verify: a value, never an exception, for an answer that fails. At critical risk an unsupported claim
    // fails the answer (at lower levels it is a warning unless nothing of it is in the sources).
    const answer = "Northwind opened its second assembly plant in Oslo, Norway, in March 2021.";
    const result = await verifier.verify({ text: answer, sources: [source], riskOverride: "critical" });

    // 2. Mitigate: what to do about the failed layers and claims of that result.
    const failed = result.layersRun.filter((layer) => !layer.passed);
    const mitigation = await verifier.mitigate(answer, failed, result.claims);

    // 3. Calibrate: a raw layer score through the layer's Platt model.
    const calibrated = await verifier.calibrateConfidence(0.9, "grounding");
    // A refit model swapped in: later verifications (and calibrations) use it.
    await verifier.updateCalibration({ grounding: { a: -5, b: 2.5 } });
    const recalibrated = await verifier.calibrateConfidence(0.9, "grounding");

    // 4. The correction loop: any model as a plain function (here two scripted drafts), the verifier above.
    const drafts = [
      answer,
      "Northwind opened its second assembly plant in Tampere, Finland, in August 2023.",
    ];
    const corrected = await correctAnswer(
      {
        prompt: "Where did Northwind open its second plant, and when?",
        sources: [source],
        riskOverride: "critical",
      },
      { generate: async () => drafts.shift() ?? "", verify: verifier.verify },
    );

    // 5. The golden-set answer validator: provenance gates first, then the expected format and value.
    const golden = validateAnswer(
      "The plant opened in 2023.",
      { valueType: "integer", value: 2023 },
      {
        sourceVerified: corrected.outcome !== "exhausted",
      },
    );

    // 6. The on-chain report scorer: one finding per citation set, then the report's confidence.
    const finding = scoreFinding({
      isInference: false,
      citationKinds: ["transaction", "block"],
      statuses: ["VERIFIED", "VERIFIED"],
    });

    return {
      passed: result.passed,
      mitigation: mitigation.action,
      calibrated,
      recalibrated,
      correction: { outcome: corrected.outcome, iterations: corrected.iterations, text: corrected.text },
      golden,
      reportConfidence: scoreReport([finding]),
    };
  } finally {
    await verifier.close();
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(await main());
