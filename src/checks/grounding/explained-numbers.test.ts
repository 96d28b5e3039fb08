import { describe, expect, it } from "vitest";
import { createVerifier } from "../../facade/create-verifier.js";
import { makeNumbersLayer } from "../numbers/index.js";
import { explainedNumbers } from "./explained-numbers.js";
import { makeGroundingLayer } from "./index.js";

const subscribers =
  "At the end of 2023 the company had 12,600,000 subscribers, up from 11,900,000 a year earlier.";
const costs = "Operating costs were $1,312 million in 2022 and $1,405 million in 2023.";

const issueCodes = (result: Awaited<ReturnType<ReturnType<typeof createVerifier>["verify"]>>) =>
  result.claims.flatMap((claim) => claim.issues.map((issue) => `${issue.layer}:${issue.code}`));

describe("grounding accepts the numbers the numbers layer traced", () => {
  const verifier = createVerifier({ layers: [makeGroundingLayer(), makeNumbersLayer()] });

  it("a figure written at another scale passes both layers", async () => {
    const result = await verifier.verify({
      text: "The company had 12.6 million subscribers at the end of 2023.",
      sources: [subscribers],
    });
    expect(issueCodes(result)).toEqual([]);
    expect(result.passed).toBe(true);
    const grounding = result.layersRun.find((layer) => layer.layer === "grounding");
    expect(grounding).toMatchObject({ passed: true, details: { numbersTracedByNumbersLayer: 1 } });
  });

  it("a rounded figure with another scale word passes too ($1.3 billion for $1,312 million)", async () => {
    const result = await verifier.verify({
      text: "Operating costs were $1.3 billion in 2022.",
      sources: [costs],
    });
    expect(issueCodes(result)).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it("a wrong figure is still flagged by both layers", async () => {
    const result = await verifier.verify({
      text: "The company had 13.6 million subscribers at the end of 2023.",
      sources: [subscribers],
    });
    expect(result.passed).toBe(false);
    expect(issueCodes(result)).toEqual(
      expect.arrayContaining(["grounding:NUMBER_MISMATCH", "numbers:SUSPICIOUS_NUMBER"]),
    );
  });

  it("without the numbers layer, grounding alone still flags the figure it cannot find", async () => {
    const groundingOnly = createVerifier({ layers: [makeGroundingLayer()] });
    const result = await groundingOnly.verify({
      text: "The company had 12.6 million subscribers at the end of 2023.",
      sources: [subscribers],
    });
    expect(result.passed).toBe(false);
    // 12.6 million where the passage says 12,600,000: grounding alone cannot read the scale.
    expect(issueCodes(result)).toEqual(["grounding:NUMBER_MISMATCH"]);
  });

  it("a derived figure stays flagged by grounding: a chance difference of two other figures must not pass", async () => {
    const result = await verifier.verify({
      text: "Revenue grew 19.05% from 2022 to 2023.",
      sources: ["Revenue was $4.2 million in 2022 and $5.0 million in 2023."],
    });
    // Flagged, not passed: the claim is unsupported, a warning.
    expect(result.verdict).toBe("warn");
    expect(issueCodes(result)).toContain("grounding:NUMBER_NOT_IN_SOURCES");
    // The numbers layer does derive it: grounding flags it anyway.
    const numbers = result.layersRun.find((layer) => layer.layer === "numbers")?.details.validation as {
      numbers: { text: string; status: string }[];
    };
    expect(numbers.numbers).toMatchObject([{ text: "19.05%", status: "derived" }]);
  });

  it("reads the figures other layers traced, from their typed tracedFigures field", () => {
    const result = (tracedFigures?: { start: number; end: number }[]) => ({
      layer: "numbers" as const,
      passed: true,
      score: 1,
      latencyMs: 0,
      details: { validation: { numbers: [{ status: "exact", span: { start: 40, end: 44 } }] } },
      ...(tracedFigures === undefined ? {} : { tracedFigures }),
    });
    expect(
      explainedNumbers([
        result([
          { start: 1, end: 3 },
          { start: 5, end: 9 },
        ]),
      ]),
    ).toEqual([
      { start: 1, end: 3 },
      { start: 5, end: 9 },
    ]);
    // Untyped details are not read: only the declared field carries the exchange.
    expect(explainedNumbers([result()])).toEqual([]);
    expect(explainedNumbers([])).toEqual([]);
  });

  it("the numbers layer declares exact and close figures as traced, not derived or orphan ones", async () => {
    const result = await verifier.verify({
      text: "The company had 12.6 million subscribers in 2023, and 99 million in 2030.",
      sources: [subscribers],
    });
    const numbers = result.layersRun.find((layer) => layer.layer === "numbers");
    const text = "The company had 12.6 million subscribers in 2023, and 99 million in 2030.";
    const traced = (numbers?.tracedFigures ?? []).map((span) => text.slice(span.start, span.end));
    expect(traced.some((figure) => figure.startsWith("12.6"))).toBe(true);
    expect(traced.some((figure) => figure.startsWith("99"))).toBe(false);
  });
});
