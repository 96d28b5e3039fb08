import { Cause, Effect, Exit, Layer, Option } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCitationsLayer } from "../checks/citations/layer.js";
import type { EvidenceStore } from "../checks/citations/store/evidence-store.js";
import { openFixtureStore } from "../checks/citations/testing/fixture-store.js";
import { makeNumbersLayer } from "../checks/numbers/index.js";
import { type ScriptedAnswer, scriptedLLM } from "../testing/scripted-model.js";
import { makeVerificationAppLayer } from "../verification/app-layer.js";
import { type CorrectionLoopOptions, defaultInsufficientEvidenceAnswer, runCorrectionLoop } from "./loop.js";

// A real mainnet transaction from the fixture store (ethereum-etl test resources, MIT): block 483920, 1.53 ETH.
const hash = "0x05287a561f218418892ab053adfb3d919860988b19458c570c5c30f51c146f02";
const sender = "0x2a65aca4d5fc5b5c859090a6c34d164135398226";
const recipient = "0x743b8aeedc163c0e3a0fe9f3910d146c48e70da8";
const fabricated = `0x${"5e".repeat(32)}`;
const evidence = `Transaction ${hash} moved 1.53 ETH from ${sender} to ${recipient}; it was mined in block 483920.`;

const fabricatedAnswer = `[ADDR:${sender}] sent 1.53 ETH to [ADDR:${recipient}] in [TX:${fabricated}]. [TX:${hash}] moved 2.3 ETH.`;
const correctedAnswer = `[ADDR:${sender}] sent 1.53 ETH to [ADDR:${recipient}] in [TX:${hash}] at [BLOCK:483920].`;

let store: EvidenceStore;
beforeAll(async () => {
  store = await Effect.runPromise(openFixtureStore());
});
afterAll(async () => {
  await Effect.runPromise(store.close);
});

const runLoop = (answers: readonly ScriptedAnswer[], options: Partial<CorrectionLoopOptions> = {}) => {
  const scripted = scriptedLLM({ script: { sequence: answers } });
  const app = makeVerificationAppLayer({ layers: [makeCitationsLayer({ store }), makeNumbersLayer()] });
  const outcome = Effect.runPromise(
    runCorrectionLoop({
      prompt: "Which transaction sent 1.53 ETH, and in which block? Cite it.",
      sources: [evidence],
      riskOverride: "medium",
      ...options,
    }).pipe(Effect.provide(Layer.merge(app, scripted.layer))),
  );
  return { outcome, model: scripted.model };
};

describe("the correction loop", () => {
  it("sends back the fabricated citation and the wrong number with evidence, then accepts the corrected answer", async () => {
    const { outcome, model } = runLoop([fabricatedAnswer, correctedAnswer]);
    const result = await outcome;
    expect(result.outcome).toBe("corrected");
    expect(result.text).toBe(correctedAnswer);
    expect(result.iterations).toBe(2);
    expect(result.trace.map((iteration) => iteration.result.passed)).toEqual([false, true]);
    const kinds = result.trace[0]!.failures.map((failure) => failure.kind);
    expect(kinds).toContain("invalid-citation");
    expect(kinds).toContain("mismatched-value");

    const calls = model.generateCalls();
    expect(calls).toHaveLength(2);
    const feedback = calls[1]!.prompt;
    expect(feedback).toBe(result.trace[0]!.correctionPrompt);
    expect(feedback).toMatch(new RegExp(`INVALID CITATION: .*${fabricated}`));
    expect(feedback).toMatch(/DATA MISMATCH: .*2\.3 ETH/);
    expect(feedback).toContain(`AVAILABLE EVIDENCE:\n[0] ${evidence}`);
    expect(feedback).toContain(`PREVIOUS RESPONSE:\n${fabricatedAnswer}`);
    // The conversation keeps the first prompt and the model's own first answer.
    expect(calls[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("returns a passing first answer without asking again", async () => {
    const { outcome, model } = runLoop([correctedAnswer]);
    const result = await outcome;
    expect(result).toMatchObject({ outcome: "passed", iterations: 1, text: correctedAnswer, warnings: [] });
    expect(model.generateCalls()).toHaveLength(1);
  });

  it("falls back to the insufficient-evidence answer after 3 failing rounds, with the full trace", async () => {
    const { outcome, model } = runLoop([
      fabricatedAnswer,
      fabricatedAnswer,
      fabricatedAnswer,
      correctedAnswer,
    ]);
    const result = await outcome;
    expect(result.outcome).toBe("exhausted");
    expect(result.fallback).toBe("insufficient-evidence");
    expect(result.text).toBe(defaultInsufficientEvidenceAnswer);
    expect(result.iterations).toBe(3);
    expect(model.generateCalls()).toHaveLength(3);
    expect(
      result.trace.map((iteration) => [iteration.iteration, iteration.text, iteration.result.passed]),
    ).toEqual([
      [1, fabricatedAnswer, false],
      [2, fabricatedAnswer, false],
      [3, fabricatedAnswer, false],
    ]);
    expect(result.trace.map((iteration) => iteration.correctionPrompt === undefined)).toEqual([
      false,
      false,
      true,
    ]);
    expect(result.warnings.join("\n")).toMatch(/invalid-citation/);
  });

  it("can return the last text with its warnings instead", async () => {
    const { outcome } = runLoop([fabricatedAnswer, fabricatedAnswer], {
      maxIterations: 2,
      fallback: "last-with-warnings",
    });
    const result = await outcome;
    expect(result.outcome).toBe("exhausted");
    expect(result.text.startsWith(fabricatedAnswer)).toBe(true);
    expect(result.text).toMatch(/Warning: this answer failed verification:\n- invalid-citation/);
  });

  it("fails with the model's error when the model cannot answer, never with a pass", async () => {
    const scripted = scriptedLLM({ script: { sequence: [] } });
    const app = makeVerificationAppLayer({ layers: [makeNumbersLayer()] });
    const exit = await Effect.runPromiseExit(
      runCorrectionLoop({ prompt: "?", sources: [evidence] }).pipe(
        Effect.provide(Layer.merge(app, scripted.layer)),
      ),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    if (Exit.isFailure(exit))
      expect(Cause.failureOption(exit.cause).pipe(Option.map((error) => error._tag))).toEqual(
        Option.some("ModelCallError"),
      );
  });

  it.each([0, 11, 1.5])("refuses maxIterations %s", async (maxIterations) => {
    await expect(runLoop([correctedAnswer], { maxIterations }).outcome).rejects.toThrow(/maxIterations/);
  });
});
