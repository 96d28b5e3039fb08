import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createVerifier } from "../../facade/create-verifier.js";
import type { VerificationRequest } from "../../model/request.js";
import { fakeClaim, fakeVerificationResult } from "../fake-verification-result.js";
import { loadGoldenSet } from "./load-golden-set.js";
import { runGoldenSet } from "./run-golden-set.js";

const examplePath = resolve(import.meta.dirname, "../../../examples/golden/spec-cases.yaml");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-golden-"));
});

/** A fake verifier that flags any text containing "1823" (as a contradicted claim) and passes the rest. */
const verifier = () => {
  const requests: VerificationRequest[] = [];
  const verify = async (request: VerificationRequest) => {
    requests.push(request);
    const start = request.text.indexOf("1823");
    return start >= 0
      ? fakeVerificationResult({
          overallConfidence: 0.1,
          passed: false,
          riskLevel: request.riskOverride ?? "low",
          claims: [fakeClaim(request.text, 0, "contradicted")],
        })
      : fakeVerificationResult({
          overallConfidence: 0.95,
          passed: true,
          riskLevel: request.riskOverride ?? "low",
        });
  };
  return { verify, requests };
};

describe("loadGoldenSet", () => {
  it("loads the shipped example set with its fabricated and low-risk cases", async () => {
    const set = await loadGoldenSet(examplePath, "fail");
    expect(set.name).toBe("spec-cases");
    const byId = new Map(set.cases.map((goldenCase) => [goldenCase.id, goldenCase]));
    expect(byId.get("fabricated-claim")?.expected.passed).toBe(false);
    expect(byId.get("low-risk-factual")?.expected.passed).toBe(true);
  });

  it("reads JSONL cases and reports a malformed line with its number", async () => {
    const path = join(dir, "set.jsonl");
    const good = JSON.stringify({ id: "a", text: "t", expected: { passed: true } });
    await writeFile(path, `${good}\n{"id": "b"}\n`);
    const set = await loadGoldenSet(path, "skip");
    expect(set.cases.map((goldenCase) => goldenCase.id)).toEqual(["a"]);
    expect(set.malformed).toMatchObject([{ lineNumber: 2 }]);
    await expect(loadGoldenSet(path, "fail")).rejects.toMatchObject({
      _tag: "InputError",
      code: "malformed-line",
    });
  });

  it.each([
    ["bad.yaml", "cases: [ {id: x", "malformed-file"],
    ["empty.yaml", "cases: []", "malformed-file"],
    ["set.txt", "", "unknown-format"],
  ])("rejects %s with a typed error", async (name, content, code) => {
    const path = join(dir, name);
    await writeFile(path, content);
    await expect(loadGoldenSet(path, "skip")).rejects.toMatchObject({ _tag: "InputError", code });
  });
});

describe("runGoldenSet", () => {
  it("judges the example: the fabricated claim fails, the low-risk factual case passes", async () => {
    const set = await loadGoldenSet(examplePath, "fail");
    const { verify, requests } = verifier();
    const run = await runGoldenSet(set.name, set.cases, verify);
    const byId = new Map(run.outcomes.map((outcome) => [outcome.id, outcome]));
    expect(byId.get("fabricated-claim")).toMatchObject({
      met: true,
      passed: false,
      answer: { valid: false, failure: "hallucination" },
    });
    expect(byId.get("low-risk-factual")).toMatchObject({ met: true, passed: true, answer: { valid: true } });
    expect(byId.get("unverified-source-blocks-well-formatted-answer")).toMatchObject({
      met: true,
      answer: { valid: false, failure: "hallucination" },
    });
    expect(requests.find((request) => request.text.includes("Eiffel"))).toMatchObject({
      riskOverride: "high",
      sources: [expect.stringContaining("Gustave Eiffel")],
    });
    expect(byId.get("error-detected-blocks-correct-answer")).toMatchObject({
      met: true,
      passed: true,
      answer: { valid: false, failure: "error" },
    });
    expect(byId.get("ambiguity-detected-blocks-correct-answer")).toMatchObject({
      met: true,
      passed: true,
      answer: { valid: false, failure: "ambiguity" },
    });
    // 6 cases: 4 blocked by the provenance gates, each counted under its own gate: fabricated and unverified
    // by the source gate -> hallucination rate 2/6; one by the error gate, one by the ambiguity gate -> 1/6 each;
    // 1 case with format expectations passed the gates (numeric) and matched -> format accuracy 1/1;
    // valid answers: low-risk, numeric -> 2/6
    expect(run.summary).toEqual({
      cases: 6,
      expectationsMet: 1,
      verdictAccuracy: 1,
      hallucinationRate: 2 / 6,
      executionErrorRate: 1 / 6,
      ambiguityRate: 1 / 6,
      formatAccuracy: 1,
      answerAccuracy: 2 / 6,
    });
  });

  it("with the real offline verifier: the fabricated claim fails, the low-risk factual case passes", async () => {
    const set = await loadGoldenSet(examplePath, "fail");
    const verifier = createVerifier();
    try {
      const run = await runGoldenSet(set.name, set.cases, verifier.verify);
      const byId = new Map(run.outcomes.map((outcome) => [outcome.id, outcome]));
      expect(byId.get("fabricated-claim")).toMatchObject({ passed: false, met: true });
      expect(byId.get("low-risk-factual")).toMatchObject({ passed: true, met: true });
      // The shipped example is what the CI example in docs/EVALUATION.md runs: every case must hold.
      expect(run.outcomes.filter((outcome) => !outcome.met)).toEqual([]);
    } finally {
      await verifier.close();
    }
  });

  it("counts an outage as unverified and a mismatch, never a pass", async () => {
    const failing = async (): Promise<never> => {
      throw new Error("provider down");
    };
    const run = await runGoldenSet(
      "x",
      [{ id: "a", text: "Water boils at 100 C.", expected: { passed: true } }],
      failing,
    );
    expect(run.outcomes[0]).toMatchObject({
      met: false,
      passed: undefined,
      error: "Error: provider down",
      answer: { valid: false, reason: expect.stringContaining("source_verified=missing") },
    });
    expect(run.summary.verdictAccuracy).toBe(0);
  });

  it("reports a wrong verdict, tier and unflagged phrase as mismatches", async () => {
    const { verify } = verifier();
    const run = await runGoldenSet(
      "x",
      [
        {
          id: "a",
          text: "Built in 1900.",
          riskOverride: "low",
          expected: { passed: false, tier: "high", flaggedClaims: ["1900"] },
        },
      ],
      verify,
    );
    expect(run.outcomes[0]!.mismatches).toEqual([
      "expected the verifier to flag the text, it passed it",
      "expected tier high, got low",
      'expected "1900" to be in a flagged claim',
      "expected the answer validator to reject the answer",
    ]);
  });
});
