import { describe, expect, it } from "vitest";
import { extractCitations } from "../extract/extract.js";
import { defaultUncitedOptions, findUncitedStatements } from "./find-uncited.js";

const tx = `0x${"cd".repeat(32)}`;
const uncited = (text: string, options = defaultUncitedOptions) =>
  findUncitedStatements(text, extractCitations(text).citations, options).map((statement) => statement.text);

describe("findUncitedStatements", () => {
  it.each([
    ["The wallet transferred $1,000,000 to Binance.", ["transferred $1,000,000"]],
    ["Alice sent 5 ETH to Bob.", ["sent 5 ETH"]],
    ["It received 20 tokens from the bridge.", ["received 20 tokens from"]],
    ["Major accumulation on 2024-01-15.", ["on 2024-01-15"]],
    ["It was mined at block 1234.", ["at block 1234"]],
    ["See transaction 0xabc for details.", ["transaction 0xabc"]],
    ["The wallet 0x12ab was drained.", ["wallet 0x12ab"]],
    [`Alice sent 5 ETH to Bob [TX:${tx}].`, []],
    [`[TX:${tx}] shows that Alice sent 5 ETH to Bob.`, []],
    ["The market was calm and nobody knows why.", []],
  ])("%s", (text, expected) => {
    expect(uncited(text)).toEqual(expected);
  });

  it("gives spans into the text", () => {
    const text = "Yesterday Alice sent 5 ETH.";
    const [statement] = findUncitedStatements(text, []);
    expect(statement && text.slice(statement.span.start, statement.span.end)).toBe("sent 5 ETH");
  });

  it("counts a citation only within the configured distance", () => {
    const text = `Alice sent 5 ETH to Bob, which everyone saw. [TX:${tx}]`;
    expect(uncited(text, { ...defaultUncitedOptions, maxDistance: 10 })).toEqual(["sent 5 ETH"]);
    expect(uncited(text, { ...defaultUncitedOptions, maxDistance: 100 })).toEqual([]);
  });

  it.each([
    [
      `[ADDR:0x${"ab".repeat(20)}] paid in [TX:${tx}]. The wallet then transferred $1,000,000 to Binance.`,
      ["transferred $1,000,000"],
    ],
    [`Alice sent 5 ETH to Bob. Then everything changed. [TX:${tx}]`, ["sent 5 ETH"]],
    [`In [TX:${tx}] Alice sent 5 ETH to Bob.`, []],
    [`Alice sent 5 ETH to Bob. [TX:${tx}]`, []],
  ])("a citation in another sentence does not cover %s", (text, expected) => {
    expect(uncited(text)).toEqual(expected);
  });

  it("can let citations cover neighbouring sentences when configured", () => {
    const text = `[TX:${tx}] is real. The wallet then transferred $1,000,000 to Binance.`;
    expect(uncited(text, { ...defaultUncitedOptions, withinSentence: false })).toEqual([]);
    expect(uncited(text)).toEqual(["transferred $1,000,000"]);
  });

  it("accepts configured patterns", () => {
    expect(
      uncited("Revenue grew 12% last year.", {
        ...defaultUncitedOptions,
        extraPatterns: [/\bgrew\s\d{1,3}%/g],
      }),
    ).toEqual(["grew 12%"]);
  });

  it("scans 1 MB of near misses quickly", () => {
    const text = "sent 5 ETHx received nothing transferred $ at block x on 2024-1-1 ".repeat(16_000);
    const started = performance.now();
    findUncitedStatements(text, []);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
