import { afterAll, describe, expect, it } from "vitest";
import { createVerifier } from "../facade/create-verifier.js";
import { pairedCostRatio } from "../testing/measured-cost.js";
import { defaultEvidenceFocus } from "./focus-evidence.js";

/**
 * Cost grows linearly with the input: doubling the sources (or the answer) at most about doubles the time of a
 * verification. A step that compares every part of the input with every other part (quadratic) would take
 * about four times as long. Every run gets text no cache has seen.
 */

let seed = 1;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

const nouns = [
  "revenue",
  "freight",
  "margin",
  "payroll",
  "inventory",
  "output",
  "backlog",
  "deposits",
  "tariffs",
];
const places = [
  "Lisbon",
  "Osaka",
  "Denver",
  "Tromso",
  "Accra",
  "Quito",
  "Perth",
  "Tallinn",
  "Hanoi",
  "Cusco",
];
const verbs = ["rose", "fell", "reached", "stood at", "grew to", "declined to"];

/** A report: prose paragraphs with figures, and tables with a caption, row labels and yearly columns. */
const report = (characters: number): string => {
  const blocks: string[] = [];
  let size = 0;
  let n = 0;
  while (size < characters) {
    n += 1;
    const block =
      n % 4 === 0
        ? `(in thousands)\n\nItem ${n} | 2022 | 2023\n${[0, 1, 2, 3]
            .map(
              () =>
                `${pick(nouns)} of ${pick(places)} ${n} | ${Math.floor(random() * 9000)} | ${Math.floor(random() * 9000)}`,
            )
            .join("\n")}`
        : Array.from(
            { length: 4 },
            () =>
              `The ${pick(nouns)} of the ${pick(places)} unit ${n} ${pick(verbs)} $${(random() * 900).toFixed(1)} million${random() < 0.5 ? ` in ${2015 + Math.floor(random() * 9)}` : ""}.`,
          ).join(" ");
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks.join("\n\n");
};

/** An answer of about `characters`, its sentences taken from the report (some figures changed). */
const answerFrom = (source: string, characters: number): string => {
  const sentences = source.split(/(?<=\.)\s+/).filter((sentence) => sentence.startsWith("The "));
  const parts: string[] = [];
  let size = 0;
  while (size < characters) {
    const sentence = pick(sentences);
    const part = random() < 0.3 ? sentence.replace(/\d/, String(Math.floor(random() * 10))) : sentence;
    parts.push(part);
    size += part.length + 1;
  }
  return parts.join(" ");
};

const verifier = createVerifier();
const reading = createVerifier({
  settings: { evidenceFocus: { ...defaultEvidenceFocus, above: 1_000_000_000 } },
});
afterAll(async () => {
  await verifier.close();
  await reading.close();
});

/**
 * The time ratio of one doubling of the input: `size` and `4 * size` (two doublings) timed in pairs in this
 * thread's CPU time (the verifier runs in it), the median pair's ratio taken and its square root returned. Other
 * test files run in processes of their own, so a busy machine makes them wait, not count; two doublings at once
 * halve the share of noise in the figure. Linear work gives about 2, work that compares every pair of parts
 * about 4.
 */
const doublingRatio = async (
  run: (size: number) => Promise<unknown>,
  size: number,
  rounds: number,
): Promise<number> => Math.sqrt(await pairedCostRatio(run, size, size * 4, { warmups: 1, rounds }));

describe("cost linear in the input", () => {
  it.each([
    { sources: "the sources every layer reads", read: () => reading, size: 100_000, runs: 3 },
    {
      sources: "very large sources, focused on what concerns the answer,",
      read: () => verifier,
      size: 1_500_000,
      runs: 3,
    },
  ])("doubling $sources at most about doubles the time", async ({ read, size, runs }) => {
    const answer = answerFrom(report(20_000), 1_000);
    const ratio = await doublingRatio(
      (chars) => read().verify({ text: answer, sources: [report(chars)] }),
      size,
      runs,
    );
    expect(ratio).toBeLessThan(2.5);
  });

  it("doubling the answer at most about doubles the time", async () => {
    const source = report(30_000);
    const ratio = await doublingRatio(
      (size) => verifier.verify({ text: answerFrom(source, size), sources: [`${source}\n\nNote ${size}.`] }),
      // 12,000 characters: at 6,000 a run took 22-65 ms and the ratio moved from 1.35 to 2.57 between runs.
      12_000,
      7,
    );
    expect(ratio).toBeLessThan(2.5);
  });
});
