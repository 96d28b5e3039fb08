import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliIn } from "../../../cli/testing.js";
import { asksForSingleAggregate } from "./decomposed-total.js";
import { singleAggregateLookupRule } from "./single-aggregate-rule.js";

const check = async (answer: string, question: string, source: string) => {
  const dir = await mkdtemp(join(tmpdir(), "veracity-aggregate-"));
  await writeFile(join(dir, "answer.txt"), answer);
  await writeFile(join(dir, "source.md"), source);
  const argv = ["check", "answer.txt", "--source", "source.md", "--question", question];
  // A decomposed total is unsupported (the sources do not state it): a warning, which --fail-on unsupported
  // turns into exit code 1.
  const { code, stdout } = await runCliIn(
    [...argv, "--layers", "numbers", "--fail-on", "unsupported", "--format", "json"],
    dir,
  );
  const result = JSON.parse(stdout) as {
    passed: boolean;
    verdict: string;
    claims: { verdict: string; issues: { code: string; message: string }[] }[];
  };
  const codes = result.claims.flatMap((claim) => claim.issues.map((issue) => issue.code));
  return { code, passed: result.passed, verdict: result.verdict, codes, result };
};

// Parts of a figure, each given for one item, with no stated total for all items.
const parts = [
  "Ticket sales by gate for the festival's opening day.",
  "",
  "North gate: 4,120 tickets.",
  "South gate: 2,985 tickets.",
  "",
].join("\n");

describe("a single aggregate metric is one lookup (veracity check)", () => {
  it("flags a sum of parts given as the total the question asked for", async () => {
    for (const answer of [
      "The total number of tickets sold on opening day was 7,105.",
      "Total tickets sold on opening day: 4,120 + 2,985 = 7,105.",
    ]) {
      const { code, verdict, codes, result } = await check(
        answer,
        "How many tickets were sold in total on opening day?",
        parts,
      );
      expect(verdict).toBe("warn");
      expect(code).toBe(1);
      expect(codes).toContain("DECOMPOSED_AGGREGATE");
      expect(JSON.stringify(result)).toMatch(/sum of parts \(.*4120.*2985.*= 7105\)/);
    }
  });

  it("accepts the same sum when the question asks for those parts to be added", async () => {
    const { passed, codes } = await check(
      "Together the north and south gates sold 4,120 + 2,985 = 7,105 tickets.",
      "What is the total of the north and south gate sales, added up across the two gates?",
      parts,
    );
    expect(codes).not.toContain("DECOMPOSED_AGGREGATE");
    expect(passed).toBe(true);
  });

  it("accepts a sum that says it covers only part of the data", async () => {
    const { passed, codes } = await check(
      "Counting only the north and south gates (a partial count), 7,105 tickets were sold on opening day.",
      "How many tickets were sold in total on opening day?",
      parts,
    );
    expect(codes).not.toContain("DECOMPOSED_AGGREGATE");
    expect(passed).toBe(true);
  });

  it("accepts the total when the source states it", async () => {
    const { passed, codes } = await check(
      "The total number of tickets sold on opening day was 9,310.",
      "How many tickets were sold in total on opening day?",
      `${parts}All gates together: 9,310 tickets.\n`,
    );
    expect(codes).toEqual([]);
    expect(passed).toBe(true);
  });
});

describe("asksForSingleAggregate", () => {
  it("tells a request for one aggregate from a request for a breakdown or comparison", () => {
    expect(asksForSingleAggregate("What was the overall revenue in 2024?")).toBe(true);
    expect(asksForSingleAggregate("What is the total options volume for AVGO today?")).toBe(true);
    expect(asksForSingleAggregate("Break down the total revenue by segment.")).toBe(false);
    expect(asksForSingleAggregate("Compare total revenue in 2023 and 2024.")).toBe(false);
    expect(asksForSingleAggregate("What was revenue in 2024?")).toBe(false);
  });

  it("ships the rule as a prompt fragment for query decomposition", () => {
    expect(singleAggregateLookupRule).toMatch(/single aggregate figure/);
    expect(singleAggregateLookupRule).toMatch(/never answer with a sum of the parts/);
  });
});
