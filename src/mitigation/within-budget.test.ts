import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { createVerifier } from "../facade/create-verifier.js";
import type { MitigatorShape } from "./mitigator.js";

const source = "The Harbor Trust opened the second container terminal in Gdynia in August 2021.";
const wrong = "The Harbor Trust opened the second container terminal in Rotterdam in March 2019.";

/** A mitigator that rewrites a failed text after `delayMs`, as a model would. */
const rewriter = (rewrite: string, delayMs = 0): MitigatorShape => ({
  mitigate: (text) =>
    Effect.as(Effect.sleep(delayMs), {
      action: "regenerate" as const,
      reason: "regenerated with the specific failures",
      originalText: text,
      correctedText: rewrite,
    }),
});

const verifyWith = async (mitigator: MitigatorShape, maxLatencyMs?: number) => {
  const verifier = createVerifier({ mitigator });
  try {
    return await verifier.verify({
      text: wrong,
      sources: [source],
      // At critical risk the unsupported claim fails the answer, so it is mitigated.
      riskOverride: "critical",
      ...(maxLatencyMs === undefined ? {} : { maxLatencyMs }),
    });
  } finally {
    await verifier.close();
  }
};

describe("mitigation within the latency budget, the rewrite verified again (createVerifier)", () => {
  it("verifies a faithful rewrite like the first answer and shows both", async () => {
    const result = await verifyWith(rewriter(source));
    expect(result.passed).toBe(false);
    expect(result.mitigations).toHaveLength(1);
    expect(result.mitigations[0]).toMatchObject({
      action: "regenerate",
      correctedText: source,
      verification: { passed: true, reasons: [] },
    });
    expect(result.mitigations[0]?.verification?.claims.every((claim) => claim.verdict === "supported")).toBe(
      true,
    );
  });

  it("reports a rewrite that is wrong again as not passed, with its failing claims", async () => {
    const stillWrong = "The Harbor Trust opened the second container terminal in Hamburg in May 2018.";
    const result = await verifyWith(rewriter(stillWrong));
    const check = result.mitigations[0]?.verification;
    expect(check?.passed).toBe(false);
    expect(check?.claims.some((claim) => claim.verdict !== "supported")).toBe(true);
  });

  it("keeps mitigation inside the budget: a slow rewrite is abandoned and the claims flagged", async () => {
    const result = await verifyWith(rewriter(source, 2_000), 300);
    expect(result.mitigations[0]).toMatchObject({ action: "flag-uncertain" });
    expect(result.mitigations[0]?.reason).toMatch(
      /did not finish within the \d+ ms left of the latency budget/,
    );
    expect(result.mitigations[0]?.verification).toBeUndefined();
    expect(result.totalLatencyMs).toBeLessThan(2_000);
  });
});
