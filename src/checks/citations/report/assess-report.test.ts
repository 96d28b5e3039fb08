import { Effect, Schema } from "effect";
import { describe, expect, it } from "vitest";
import { citationKey } from "../citation.js";
import { buildCorrectionPrompt } from "../prompts/correction.js";
import { type CitationVerifier, notFound, verified } from "../verifiers/verifier.js";
import { assessAnalysisReport } from "./assess-report.js";
import { AnalysisReport } from "./schemas.js";

const real = `0x${"aa".repeat(32)}`;
const fake = `0x${"ff".repeat(32)}`;

/** A verifier that knows one transaction and records what it was asked. */
const knownTransactions = () => {
  const asked: string[][] = [];
  const verifier: CitationVerifier = {
    name: "scripted",
    kinds: ["transaction", "block"],
    verify: (citations) =>
      Effect.sync(() => {
        asked.push(citations.map((citation) => citation.value));
        return new Map(
          citations.map((citation) => [
            citationKey(citation.kind, citation.value),
            citation.value === real || citation.kind === "block"
              ? verified("scripted", "known")
              : notFound("scripted", "unknown"),
          ]),
        );
      }),
  };
  return { verifier, asked };
};

const report = Schema.decodeUnknownSync(AnalysisReport)({
  query: "who paid?",
  summary: "two findings",
  findings: [
    {
      claim: "A paid B",
      confidence: 0.99,
      citations: [
        { type: "transaction", value: real.toUpperCase().replace("0X", "0x"), context: "" },
        { type: "block", value: "0042", context: "" },
      ],
    },
    { claim: "C paid D", confidence: 0.99, citations: [{ type: "transaction", value: fake, context: "" }] },
  ],
  limitations: [],
  overall_confidence: 0.99,
});

describe("assessAnalysisReport", () => {
  it("scores findings from verification, not from the confidence the model claimed", async () => {
    const { verifier, asked } = knownTransactions();
    const assessment = await Effect.runPromise(assessAnalysisReport(report, { verifiers: [verifier] }));
    expect(assessment.findings.map((finding) => finding.confidence)).toEqual([1, expect.closeTo(0.08, 6)]);
    expect(assessment.allVerified).toBe(false);
    expect(assessment.overallConfidence).toBeLessThan(0.5);
    expect(asked).toEqual([[real, "42", fake]]);
  });
});

describe("buildCorrectionPrompt", () => {
  it("lists every problem, the original response and the evidence", () => {
    const prompt = buildCorrectionPrompt({
      originalResponse: "C paid D",
      problems: [
        { status: "NOT_FOUND", value: fake, detail: "not in the store" },
        { status: "MISMATCH", value: real, detail: "value: the claim says 5 ETH, the record says 1 ETH" },
      ],
      uncitedStatements: ["sent 3 ETH"],
      evidence: { transactions: [real] },
    });
    expect(prompt).toContain(`INVALID CITATION: ${fake} does not exist`);
    expect(prompt).toContain("DATA MISMATCH");
    expect(prompt).toContain("UNCITED CLAIM: 'sent 3 ETH'");
    expect(prompt).toContain("C paid D");
  });
});
