import { describe, expect, it } from "vitest";
import type { ClaimFinding } from "../model/claim.js";
import { addDisclaimer, defaultDisclaimer, flagUncertain, redact } from "./actions.js";

const text = "Revenue was $48.2 million. The CEO is Marcus Lindqvist. Margins rose to 41.3%.";
const finding = (start: number, end: number, verdict: ClaimFinding["verdict"]): ClaimFinding => ({
  text: text.slice(start, end),
  span: { start, end },
  kind: "factual",
  verdict,
  score: verdict === "supported" ? 1 : 0.2,
  evidence: [],
  issues:
    verdict === "supported"
      ? []
      : [{ code: "ENTITY_NOT_IN_SOURCES", message: "not in the sources", span: { start, end } }],
  layers: ["grounding"],
});
const claims = [finding(0, 26, "supported"), finding(27, 55, "unsupported"), finding(56, 79, "supported")];

describe("mitigation actions", () => {
  it("adds the disclaimer once", () => {
    const once = addDisclaimer(text);
    expect(once.endsWith(defaultDisclaimer)).toBe(true);
    expect(addDisclaimer(once)).toBe(once);
  });

  it("flags failing claims inline and leaves the rest", () => {
    expect(flagUncertain(text, claims)).toBe(
      "Revenue was $48.2 million. The CEO is Marcus Lindqvist. [unverified: not in the sources] Margins rose to 41.3%.",
    );
  });

  it("redacts failing claims, keeps every supported sentence intact and says what was removed", () => {
    const { text: redacted, removed } = redact(text, claims);
    expect(removed).toEqual(["The CEO is Marcus Lindqvist."]);
    expect(redacted).toContain("Revenue was $48.2 million.");
    expect(redacted).toContain("Margins rose to 41.3%.");
    expect(redacted).not.toContain("Lindqvist");
    expect(redacted).toMatch(/\[1 unsupported statement was removed\]$/);
  });

  // A sub-claim inside a failing sentence (two layers' findings on the same words) overlaps it.
  const nested = [...claims, finding(31, 37, "contradicted")];

  it("redacts overlapping failing claims once, leaving the supported sentences intact", () => {
    const { text: redacted, removed } = redact(text, nested);
    expect(removed).toEqual(["The CEO is Marcus Lindqvist."]);
    expect(redacted).toBe(
      "Revenue was $48.2 million. Margins rose to 41.3%.\n\n[1 unsupported statement was removed]",
    );
  });

  it("puts one marker after overlapping failing claims, never inside another marker", () => {
    expect(flagUncertain(text, nested)).toBe(
      "Revenue was $48.2 million. The CEO is Marcus Lindqvist. [contradicted: not in the sources] Margins rose to 41.3%.",
    );
  });
});
