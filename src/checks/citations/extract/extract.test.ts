import { describe, expect, it } from "vitest";
import { extractCitations } from "./extract.js";

const tx = `0x${"ab12".repeat(16)}`;
const checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

const kindsAndValues = (text: string) =>
  extractCitations(text).citations.map((citation) => [citation.kind, citation.value]);

describe("extractCitations", () => {
  it.each([
    [`see [TX:${tx}]`, [["transaction", tx]]],
    [`[ADDR:${checksummed}] sent`, [["address", checksummed.toLowerCase()]]],
    ["at [BLOCK:0047218]", [["block", "47218"]]],
    ["on [TS:2023-05-02T12:19:59Z]", [["timestamp", "2023-05-02T12:19:59Z"]]],
    ["read https://example.org/a/b?c=1.", [["url", "https://example.org/a/b?c=1"]]],
    ["fixed in 3f2a9c1d", [["commit", "3f2a9c1d"]]],
    ["fixed in commit 1403083932", [["commit", "1403083932"]]],
    ["reverted by sha: deadbee", [["commit", "deadbee"]]],
    [
      "Per ADR-003 and [ADR 7]",
      [
        ["adr", "3"],
        ["adr", "7"],
      ],
    ],
    [
      "see #123 and GH-456",
      [
        ["issue", "123"],
        ["issue", "456"],
      ],
    ],
  ])("finds the citation in %s", (text, expected) => {
    expect(kindsAndValues(text)).toEqual(expected);
  });

  it.each([
    ["a CSS colour", "color: #a3f2c1; background: #ab12cd9"],
    ["a hex run inside a URL", "https://github.com/o/r/commit/3f2a9c1d4e"],
    ["a plain number", "it cost 12345678 wei"],
    ["a plain number after a far-off keyword", "the commit took 12345678 wei"],
    ["a word of hex letters", "the deadbeefcafe pattern"],
    ["a truncated transaction hash", `[TX:${tx.slice(0, 60)}]`],
  ])("finds no commit in %s", (_, text) => {
    expect(extractCitations(text).citations.filter((citation) => citation.kind === "commit")).toEqual([]);
  });

  it("returns spans into the text and the surrounding text", () => {
    const text = `The wallet paid [TX:${tx}] yesterday.`;
    const [citation] = extractCitations(text).citations;
    expect(citation && text.slice(citation.span.start, citation.span.end)).toBe(`[TX:${tx}]`);
    expect(citation?.surroundingText).toContain("The wallet paid");
  });

  it.each([
    ["a valid EIP-55 checksum", checksummed, undefined],
    ["an all-lower-case address", checksummed.toLowerCase(), undefined],
    [
      "a broken mixed-case checksum",
      checksummed.replace("aAeb", "AaEB"),
      "mixed-case address with an invalid EIP-55 checksum",
    ],
  ])("accepts or flags %s", (_, address, problem) => {
    const [citation] = extractCitations(`[ADDR:${address}]`).citations;
    expect(citation?.formatProblem).toBe(problem);
  });

  it("flags an impossible timestamp", () => {
    const [citation] = extractCitations("[TS:2023-02-30T10:00:00Z]").citations;
    expect(citation?.formatProblem).toBe("not a valid date");
  });

  it("caps the number of citations and says so", () => {
    const text = Array.from({ length: 30 }, (_, index) => `[BLOCK:${index}]`).join(" ");
    const extraction = extractCitations(text, { maxCitations: 10 });
    expect(extraction.citations).toHaveLength(10);
    expect(extraction.truncated).toBe(true);
  });

  it("adds a custom kind from configuration", () => {
    const extraction = extractCitations("see JIRA-42 now", {
      customPatterns: [{ kind: "jira", pattern: /\bJIRA-(\d{1,6})\b/g, priority: 50 }],
    });
    expect(extraction.citations.map((citation) => [citation.kind, citation.value])).toEqual([["jira", "42"]]);
  });

  it("runs in linear time on 1 MB of near-miss patterns", () => {
    const nearMisses = [
      `[TX:0x${"a1".repeat(31)}f]`,
      `[ADDR:0x${"b2".repeat(19)}c] `,
      "[BLOCK:12a] ",
      "[TS:2023-13-99T99] ",
      "http:/ ",
      "#abc ",
      "ADR- ",
      `${"0a".repeat(21)}g `,
      "GH- ",
    ].join("");
    const text = nearMisses.repeat(Math.ceil(1_000_000 / nearMisses.length)).slice(0, 1_000_000);
    const started = performance.now();
    const extraction = extractCitations(text);
    const elapsed = performance.now() - started;
    const transactions = extraction.citations.filter((citation) => citation.kind === "transaction");
    // Each near miss is a malformed citation, never a valid one.
    expect(transactions.length).toBeGreaterThan(0);
    expect(transactions.every((citation) => citation.formatProblem !== undefined)).toBe(true);
    expect(elapsed).toBeLessThan(2000);
  });

  it.each([
    [
      "a truncated bracketed hash",
      "[TX:0xabc123]",
      "transaction",
      "not a transaction hash: 6 hex digits where 64 are needed",
    ],
    [
      "a bracketed address of the wrong length",
      `[ADDR:0x${"ab".repeat(19)}]`,
      "address",
      "not an address: 38 hex digits where 40 are needed",
    ],
    ["a block that is no number", "[BLOCK:latest]", "block", "not a block number"],
  ])("flags %s as a malformed citation", (_, text, kind, problem) => {
    const [citation] = extractCitations(text).citations;
    expect([citation?.kind, citation?.formatProblem]).toEqual([kind, problem]);
  });

  it.each([
    ["a full hash in prose", `The swap in ${tx} paid out.`, [["transaction", undefined]]],
    ["a full address in prose", `Wallet ${checksummed} paid.`, [["address", undefined]]],
    [
      "a hash cut short with an ellipsis",
      "The exploit tx 0xabc123\u2026 drained it.",
      [["transaction", "truncated transaction hash: 6 hex digits and an ellipsis where 64 are needed"]],
    ],
    [
      "a short run after an identifier word",
      "funds went to wallet 0x12ab today",
      [["address", "not an address: 4 hex digits where 40 are needed"]],
    ],
    ["a selector", "the call 0x06fdde03 returns the name", []],
  ])("reads %s when prose identifiers are on", (_, text, expected) => {
    const found = extractCitations(text, { proseIdentifiers: true }).citations.map((citation) => [
      citation.kind,
      citation.formatProblem,
    ]);
    expect(found).toEqual(expected);
    expect(extractCitations(text).citations.filter((citation) => citation.kind !== "commit")).toEqual([]);
  });
});
