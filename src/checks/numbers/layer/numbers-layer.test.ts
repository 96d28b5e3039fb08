import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import type { Claim, LayerInput } from "../../../model/layer.js";
import { makeNumbersLayer } from "./numbers-layer.js";

/** One claim per sentence, with exact spans. */
const inputOf = (sentences: readonly string[], evidence: string, question?: string): LayerInput => {
  const text = sentences.join(" ");
  let offset = 0;
  const claims: Claim[] = sentences.map((sentence, index) => {
    const start = text.indexOf(sentence, offset);
    offset = start + sentence.length;
    return { index, text: sentence, span: { start, end: start + sentence.length }, kind: "factual" };
  });
  return {
    text,
    claims,
    evidence: evidence ? [{ index: 0, origin: "source", text: evidence }] : [],
    ...(question ? { question } : {}),
  };
};

const eps = "Broadcom reported EPS of $0.50 for the quarter against a consensus estimate of $0.45.";
const options =
  "AVGO options today: total volume was 20,875 contracts. Volume for the June 21 expiration: 20,893. " +
  "Volume for the June 28 expiration: 76,378.";

const run = (input: LayerInput, layer = makeNumbersLayer()) => Effect.runSync(layer.run(input));

describe("makeNumbersLayer", () => {
  it("is an evidence layer named numbers", () => {
    const layer = makeNumbersLayer();
    expect([layer.name, layer.kind]).toEqual(["numbers", "evidence"]);
  });

  it("is not ready without evidence text or recorded calculator outputs", () => {
    const layer = makeNumbersLayer();
    expect(layer.readiness(inputOf(["It grew 5%."], "")).ready).toBe(false);
    expect(layer.readiness(inputOf(["It grew 5%."], "   ")).ready).toBe(false);
    expect(layer.readiness(inputOf(["It grew 5%."], eps)).ready).toBe(true);
    const withTool = makeNumbersLayer({ calculations: [{ expression: "1+4", result: "5" }] });
    expect(withTool.readiness(inputOf(["It grew 5%."], "")).ready).toBe(true);
  });

  it("contradicts the claim with the 10.96% surprise and points at the number", () => {
    const input = inputOf(
      ["EPS was $0.50 against an estimate of $0.45.", "That is an earnings surprise of 10.96%."],
      eps,
    );
    const result = run(input);
    expect(result.passed).toBe(false);
    const findings = result.claims ?? [];
    expect(findings.map((finding) => finding.verdict)).toEqual(["supported", "contradicted"]);
    const issue = findings[1]?.issues[0];
    expect(issue).toMatchObject({ code: "SUSPICIOUS_NUMBER", expected: "11.11%", layer: "numbers" });
    expect(input.text.slice(issue?.span.start, issue?.span.end)).toBe("10.96%");
    expect(issue?.message).toContain("(0.50 - 0.45) / 0.45 * 100 = 11.11");
  });

  it("flags the 97,271 total as a partial aggregation with both figures", () => {
    const input = inputOf(["Total daily options volume for AVGO was 97,271 contracts."], options);
    const [finding] = run(input).claims ?? [];
    const issue = finding?.issues.find((i) => i.code === "PARTIAL_AGGREGATION");
    expect(issue).toMatchObject({ expected: "20,875" });
    expect(issue?.message).toContain("20,893 + 76,378");
    expect(input.text.slice(issue?.span.start, issue?.span.end)).toBe("97,271");
    expect(finding?.verdict).toBe("contradicted");
  });

  it("flags a wrong inline calculation", () => {
    const input = inputOf(["The surprise is (0.50 - 0.45) / 0.45 * 100 = 10.96%."], eps);
    const [finding] = run(input).claims ?? [];
    expect(finding?.issues.map((i) => [i.code, i.expected])).toEqual([["WRONG_INLINE_CALCULATION", "11.11"]]);
  });

  it("marks a claim with a number found nowhere as unsupported (an orphan)", () => {
    const input = inputOf(["EPS was $0.50.", "Revenue was $7.3 billion."], eps);
    const result = run(input);
    expect(result.passed).toBe(false);
    expect(result.claims?.map((c) => [c.verdict, c.issues.map((i) => i.code)])).toEqual([
      ["supported", []],
      ["unsupported", ["ORPHAN_NUMBER"]],
    ]);
    expect(result.score).toBeCloseTo(0.5);
  });

  it("passes a text whose numbers all trace, with one finding per claim holding numbers", () => {
    const input = inputOf(
      ["Broadcom beat expectations.", "EPS was $0.50 versus $0.45, a surprise of 11.11%."],
      eps,
    );
    const result = run(input);
    expect(result.passed).toBe(true);
    expect(result.score).toBe(1);
    expect(result.claims).toHaveLength(1);
    expect(result.details.validation).toMatchObject({ exactMatches: 2 });
  });

  it("trusts numbers that came from the recorded calculator calls", () => {
    const layer = makeNumbersLayer({
      calculations: () => [{ expression: "97271 / 3", result: "32423.66666" }],
    });
    const result = run(inputOf(["The mean is 32,423.67."], ""), layer);
    expect(result.passed).toBe(true);
  });

  it("fails when a number outside every claim does not trace", () => {
    const input: LayerInput = {
      text: "Revenue was $7.3 billion.",
      claims: [],
      evidence: [{ index: 0, origin: "source", text: eps }],
    };
    expect(run(input).passed).toBe(false);
  });

  it("contradicts a claim whose direction the change in the sources goes against", () => {
    const sales = "Sales were $8.0 million in 2023 and $9.0 million in 2024.";
    const result = run(inputOf(["Sales rose in 2024.", "Sales fell by $1.0 million in 2024."], sales));
    const finding = result.claims?.find((claim) => claim.text.startsWith("Sales fell"));
    expect(finding?.verdict).toBe("contradicted");
    expect(finding?.issues[0]).toMatchObject({ code: "SUSPICIOUS_NUMBER", expected: "+1 million" });
    expect(finding?.issues[0]?.message).toContain("wrong way");
  });
});
