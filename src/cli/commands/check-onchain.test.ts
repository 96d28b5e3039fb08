import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chain, writeConstructedChain } from "../../checks/citations/testing/constructed-chain.js";
import { runCliIn } from "../testing.js";

const run = runCliIn;

// biome-ignore lint/suspicious/noExplicitAny: the JSON report is read as the user reads it
type Report = any;

/**
 * `veracity check --evidence <db> --layers citations --fail-on unsupported --format json` on one answer: a
 * citation check, where an uncited claim (unsupported, a warning by default) also sets exit code 1.
 */
const checkAnswer = async (directory: string, db: string, answer: string) => {
  const file = path.join(directory, "answer.txt");
  await writeFile(file, answer);
  const source = path.join(directory, "source.txt");
  await writeFile(source, answer);
  const result = await run(
    [
      "check",
      file,
      "--source",
      source,
      "--evidence",
      db,
      "--layers",
      "citations",
      "--fail-on",
      "unsupported",
      "--format",
      "json",
    ],
    directory,
  );
  const report: Report = JSON.parse(result.stdout);
  const claims: Report[] = report.claims;
  return {
    code: result.code,
    verdicts: claims.map((claim) => claim.verdict),
    issues: claims.flatMap((claim) => claim.issues.map((issue: Report) => `${issue.code}: ${issue.message}`)),
  };
};

describe("veracity check --evidence: on-chain claims", () => {
  let directory: string;
  let db: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "veracity-onchain-"));
    await writeConstructedChain(path.join(directory, "export"));
    db = path.join(directory, "store");
    const imported = await run(
      ["evidence", "import", "ethereum", path.join(directory, "export"), "--db", db],
      directory,
    );
    expect(imported.code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  describe("every on-chain claim must be traceable", () => {
    it.each([
      ["a token amount received", "The treasury received 4.5 TKN last week."],
      ["a block named in prose", "The exploit happened in block 105."],
      ["an amount withdrawn in a ticker", "The attacker withdrew 2,000 USDC from the pool."],
    ])("flags %s with no citation", async (_, answer) => {
      const { code, verdicts, issues } = await checkAnswer(directory, db, answer);
      expect(code).toBe(1);
      expect(verdicts).toEqual(["unsupported"]);
      expect(issues.join("\n")).toMatch(/^UNCITED_CLAIM/);
    });

    it.each([
      [
        "a hash cut short in prose",
        "The funds left in tx 0xabc123\u2026 and never came back.",
        /truncated transaction hash/,
      ],
      [
        "a bracketed hash of the wrong length",
        "The funds left in [TX:0xabc123].",
        /not a transaction hash: 6 hex digits/,
      ],
      [
        "an invented full hash in prose",
        `The funds left in ${`0x${"9f".repeat(32)}`}.`,
        /not in the evidence store/,
      ],
    ])("flags %s", async (_, answer, message) => {
      const { code, verdicts, issues } = await checkAnswer(directory, db, answer);
      expect(code).toBe(1);
      // A reference to a record the store does not hold, or that cannot be one, contradicts the claim.
      expect(verdicts).toEqual(["contradicted"]);
      expect(issues.join("\n")).toMatch(message);
    });

    it("passes a claim whose prose hash is in the store", async () => {
      const { code, verdicts } = await checkAnswer(
        directory,
        db,
        `[ADDR:${chain.a}] sent 2 ETH to [ADDR:${chain.b}] in ${chain.payment}.`,
      );
      expect(verdicts).toEqual(["supported"]);
      expect(code).toBe(0);
    });
  });

  describe("token transfers and per-address totals", () => {
    it.each([
      [
        "a transfer in whole tokens",
        `[ADDR:${chain.a}] received 1.5 TKN from [ADDR:${chain.b}] in [TX:${chain.transferFromB}].`,
      ],
      ["a transfer within 1%", `[ADDR:${chain.a}] received 1.51 TKN in [TX:${chain.transferFromB}].`],
      ["a total over a block range", `[ADDR:${chain.a}] received 4.5 TKN between blocks 100 and 110.`],
      ["a total from one sender", `[ADDR:${chain.b}] sent 2.5 TKN to [ADDR:${chain.a}] across all blocks.`],
      ["a total in one block", `[ADDR:${chain.a}] received 3 TKN in block 105.`],
      ["an ether total", `[ADDR:${chain.b}] received 2 ETH from [ADDR:${chain.a}].`],
    ])("supports %s", async (_, answer) => {
      const { code, verdicts, issues } = await checkAnswer(directory, db, answer);
      expect(issues).toEqual([]);
      expect(verdicts).toEqual(["supported"]);
      expect(code).toBe(0);
    });

    it.each([
      [
        "a wrong transfer amount",
        `[ADDR:${chain.a}] received 15 TKN in [TX:${chain.transferFromB}].`,
        /token-transfer/,
      ],
      [
        "a transfer to someone else",
        `[ADDR:${chain.c}] received 1.5 TKN in [TX:${chain.transferFromB}].`,
        /token-transfer/,
      ],
      [
        "a wrong total",
        `[ADDR:${chain.a}] received 5.5 TKN between blocks 100 and 110.`,
        /address-total: .*4\.5 TKN/,
      ],
      [
        "a total outside the range",
        `[ADDR:${chain.a}] received 1 TKN in block 101.`,
        /address-total: .*1\.5 TKN/,
      ],
    ])("contradicts %s", async (_, answer, message) => {
      const { code, verdicts, issues } = await checkAnswer(directory, db, answer);
      expect(verdicts).toEqual(["contradicted"]);
      expect(issues.join("\n")).toMatch(message);
      expect(code).toBe(1);
    });

    it("cannot judge a ticker the store has no decimals for, and says so", async () => {
      const { verdicts, issues } = await checkAnswer(
        directory,
        db,
        `[ADDR:${chain.a}] received 4.5 ZZZ in [TX:${chain.transferFromB}].`,
      );
      expect(verdicts).toEqual(["unverifiable"]);
      expect(issues.join("\n")).toMatch(/no token with the symbol ZZZ/);
    });
  });
});
