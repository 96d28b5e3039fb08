import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { segmentClaims } from "../../text/claims.js";
import { makeGroundingLayer } from "./index.js";

const ground = (text: string, source: string) =>
  Effect.runSync(
    makeGroundingLayer().run({
      text,
      claims: segmentClaims(text),
      evidence: [{ index: 0, origin: "source", text: source }],
    }),
  );

describe("grounding compares periods however they are written", () => {
  it.each([
    [
      "Revenue rose 12% to $4.2 million in Q3 2025.",
      "In the third quarter of 2025, revenue rose 12% to $4.2 million.",
    ],
    [
      "In the third quarter of 2025, revenue rose 12% to $4.2 million.",
      "Revenue rose 12% to $4.2 million in Q3 2025.",
    ],
    ["Margins widened in H1 FY24 to 31%.", "Margins widened in the first half of fiscal 2024 to 31%."],
    [
      "The plant reopened in Sept. 2025 after repairs.",
      "The plant reopened in September 2025 after repairs.",
    ],
  ])("supports %j against %j", (answer, source) => {
    const result = ground(answer, source);
    expect(result.claims?.map((claim) => claim.verdict)).toEqual(["supported"]);
    expect(result.passed).toBe(true);
  });

  it.each([
    [
      "Revenue rose 12% to $4.2 million in Q2 2025.",
      "In the third quarter of 2025, revenue rose 12% to $4.2 million.",
    ],
    [
      "Revenue rose 12% to $4.2 million in Q3 2024.",
      "In the third quarter of 2025, revenue rose 12% to $4.2 million.",
    ],
    ["Margins widened in H2 FY24 to 31%.", "Margins widened in the first half of fiscal 2024 to 31%."],
  ])("still flags a different period: %j", (answer, source) => {
    const result = ground(answer, source);
    expect(result.passed).toBe(false);
    expect(result.claims?.[0]?.issues.length).toBeGreaterThan(0);
  });
});
