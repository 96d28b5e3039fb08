import { describe, expect, it } from "vitest";
import type { Verifier } from "../../facade/create-verifier.js";
import { defaultBlockedReply } from "../../mitigation/actions.js";
import type { VerificationResult } from "../../model/result.js";
import { checkAnswer } from "./check-answer.js";

const resultWith = (passed: boolean): VerificationResult => ({
  verdict: passed ? "pass" : "fail",
  passed,
  coverage: 1,
  overallConfidence: passed ? 1 : 0,
  riskLevel: "low",
  layersRun: [],
  mitigations: [],
  totalLatencyMs: 0,
  costIncurred: 0,
  claims: [],
  skippedLayers: [],
  reasons: passed ? [] : ["layer grounding failed"],
});

/** A verifier that passes exactly the texts in `good`, and records what it was asked. */
const fakeVerifier = (good: readonly string[]) => {
  const asked: string[] = [];
  const verifier = {
    verify: async ({ text }: { text: string }) => {
      asked.push(text);
      return resultWith(good.includes(text));
    },
  } as unknown as Verifier;
  return { verifier, asked };
};

const evidence = { sources: ["a source"] };

describe("checkAnswer", () => {
  it.each([
    [0, 0, "disclaimer"],
    [3, 3, "disclaimer"],
    [99, 5, "disclaimer"],
  ])(
    "with maxRegenerations %d rewrites at most %d times, then applies the fallback",
    async (max, expected, fallback) => {
      const { verifier } = fakeVerifier([]);
      let calls = 0;
      const checked = await checkAnswer("bad", evidence, {
        verifier,
        mode: "regenerate",
        maxRegenerations: max,
        regenerate: async () => {
          calls++;
          return "still bad";
        },
      });
      expect(calls).toBe(expected);
      expect(checked).toMatchObject({ passed: false, applied: fallback, regenerations: expected });
    },
  );

  it("blocks when the rewrite itself fails (a model outage is not a pass)", async () => {
    const { verifier } = fakeVerifier([]);
    const checked = await checkAnswer("bad", evidence, {
      verifier,
      mode: "regenerate",
      regenerate: () => Promise.reject(new Error("model down")),
    });
    expect(checked).toMatchObject({
      text: defaultBlockedReply,
      passed: false,
      applied: "block",
      error: "model down",
    });
  });

  it("re-verifies each rewrite and stops at the first that passes", async () => {
    const { verifier, asked } = fakeVerifier(["good"]);
    const rewrites = ["still bad", "good", "never asked"];
    const checked = await checkAnswer("bad", evidence, {
      verifier,
      mode: "regenerate",
      maxRegenerations: 3,
      regenerate: async () => rewrites.shift() ?? "",
    });
    expect(asked).toEqual(["bad", "still bad", "good"]);
    expect(checked).toMatchObject({ text: "good", passed: true, applied: "regenerate", regenerations: 2 });
  });

  it("without a regenerate function, regenerate falls back at once", async () => {
    const { verifier } = fakeVerifier([]);
    const checked = await checkAnswer("bad", evidence, { verifier, mode: "regenerate", fallback: "block" });
    expect(checked).toMatchObject({ text: defaultBlockedReply, applied: "block", regenerations: 0 });
  });
});
