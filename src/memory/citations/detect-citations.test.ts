import { describe, expect, it } from "vitest";
import { detectCitations } from "./detect-citations.js";

describe("detectCitations", () => {
  it.each([
    ["Per ADR-003, we use PostgreSQL", [["adr", "ADR-003"]]],
    ["Per [ADR 3] we use PostgreSQL", [["adr", "ADR-003"]]],
    ["Fixed in commit a1b2c3d4e5", [["commit", "a1b2c3d4e5"]]],
    ["See https://docs.example.com/api.", [["url", "https://docs.example.com/api"]]],
    [
      "Tracked in #123 and GH-456",
      [
        ["issue", "#123"],
        ["issue", "#456"],
      ],
    ],
    [
      "See https://git.example.com/repo/commit/abc1234def#L10",
      [["url", "https://git.example.com/repo/commit/abc1234def#L10"]],
    ],
    ["The header colour is #abc123", []],
    ["The table was defaced in 2024", []],
    ["Order 12345678 shipped", []],
    ["The build log has a 6-char id abc123", []],
  ])("%s", (text, expected) => {
    expect(detectCitations(text).map((citation) => [citation.kind, citation.id])).toEqual(expected);
  });

  it("spans point at the citation in the text", () => {
    const text = "Per ADR-003, we use PostgreSQL (commit 9f8e7d6c5b)";
    for (const citation of detectCitations(text)) {
      expect(text.slice(citation.span.start, citation.span.end).toLowerCase()).toContain(
        citation.kind === "adr" ? "adr-003" : citation.id,
      );
    }
  });
});
