import { describe, expect, it } from "vitest";
import { createVerifier } from "../facade/create-verifier.js";
import { withoutTimings } from "../facade/worker-pool/testing/without-timings.js";
import type { EvidenceSource } from "../model/layer.js";
import { segmentClaims } from "../text/claims.js";
import { focusEvidence } from "./focus-evidence.js";
import { makeFocusIndexCache } from "./focus-index.js";

/** A seeded generator, so a failure names the case that made it. */
const generator = (seed: number) => {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  return { random, pick };
};

// Words that make the scan's hard cases: case, a capital whose lower case is longer ('İ'), a Greek final sigma,
// first letters sharing a low byte ('š' and 'a'), figures inside longer figures, joiners, and words that start
// inside others ("ship" in "partnership").
const vocabulary = [
  "revenue",
  "Revenue",
  "REVENUES",
  "ship",
  "partnership",
  "shipping",
  "İstanbul",
  "istanbul",
  "ΟΔΟΣ",
  "οδος",
  "Šalka",
  "aalka",
  "Aalka",
  "2019",
  "20",
  "201",
  "4.2",
  "4,200",
  "$5.0",
  "margin",
  "Margins",
  "harbour",
  "freight",
  "Borealis",
  "décor",
  "DÉCOR",
  "the",
  "of",
  "and",
  "co-operative",
  "it's",
  "Q3",
  "q3",
];
const separators = [" ", " ", " ", ", ", ". ", "\n", "\n\n", "\n \t\r\n", ".\n\n\n"];

const textOf = (seed: number, words: number) => {
  const { pick } = generator(seed);
  let text = "";
  for (let at = 0; at < words; at++) text += pick(vocabulary) + pick(separators);
  return text;
};

const source = (text: string, index: number): EvidenceSource => ({ index, origin: "source", text });
const focus = { above: 1_000, keep: 600, perAnswerCharacter: 2 };

describe("focusing through the indexes of texts read before", () => {
  it("keeps exactly what the scan keeps, over generated texts and answers with the scan's hard cases", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { random, pick } = generator(seed * 7_919);
      const evidence = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, index) =>
        source(textOf(seed * 31 + index, 150 + Math.floor(random() * 600)), index),
      );
      const answer = Array.from(
        { length: 2 + Math.floor(random() * 4) },
        () => `${Array.from({ length: 3 + Math.floor(random() * 6) }, () => pick(vocabulary)).join(" ")}.`,
      ).join(" ");
      const claims = segmentClaims(answer);
      const scanned = focusEvidence(evidence, claims, focus);
      const indexes = makeFocusIndexCache({ minChars: 1, characters: 10_000_000, remember: 64 });
      // Seen once, then admitted and indexed, then read from the cache: all three as the scan.
      for (let sight = 0; sight < 3; sight++) {
        const focused = focusEvidence(evidence, claims, focus, indexes);
        expect(focused.evidence).toEqual(scanned.evidence);
        expect(focused.report).toEqual(scanned.report);
        for (const [position, item] of scanned.evidence.entries())
          for (const at of [0, Math.floor(item.text.length / 2), item.text.length])
            expect(focused.toOriginal(position, { start: at, end: at })).toEqual(
              scanned.toOriginal(position, { start: at, end: at }),
            );
      }
      expect(indexes.size()).toBe(evidence.length);
    }
  });

  it("scans a text seen once, indexes it the second time, and keeps only texts long enough within its budget", () => {
    const long = textOf(3, 400);
    const other = textOf(4, 400);
    const claims = segmentClaims("Revenue of the partnership rose in 2019.");
    const indexes = makeFocusIndexCache({ minChars: 100, characters: long.length + 10, remember: 8 });
    focusEvidence([source(long, 0)], claims, focus, indexes);
    expect(indexes.size()).toBe(0);
    focusEvidence([source(long, 0)], claims, focus, indexes);
    expect(indexes.size()).toBe(1);
    // A second text past the budget takes the first one's place.
    focusEvidence([source(other, 0)], claims, focus, indexes);
    focusEvidence([source(other, 0)], claims, focus, indexes);
    expect(indexes.size()).toBe(1);
    focusEvidence([source(other, 0)], claims, focus, indexes);
    expect(indexes.stats()).toEqual({
      cache: "focus.texts",
      lookups: 5,
      hits: 1,
      bypassed: 0,
      evictions: 1,
      entries: 1,
      characters: other.length,
      maxCharacters: long.length + 10,
    });
    const tiny = makeFocusIndexCache({ minChars: long.length + 1, characters: 10_000_000, remember: 8 });
    for (let sight = 0; sight < 3; sight++) focusEvidence([source(long, 0)], claims, focus, tiny);
    expect(tiny.size()).toBe(0);
    expect(tiny.stats()).toMatchObject({ lookups: 0, hits: 0, bypassed: 3 });
  });

  it("gives a verifier the same results for answers checked again and again against one large filing", async () => {
    const filing = Array.from(
      { length: 11_000 },
      (_, index) =>
        `Note ${index}. Revenue of segment ${index} was $${100 + index}.4 million in 2023, against ` +
        `$${90 + index}.1 million in 2022.`,
    ).join("\n\n");
    expect(filing.length).toBeGreaterThan(1_000_000);
    const answers = [
      "Revenue of segment 120 was $220.4 million in 2023.",
      "Revenue of segment 120 was $220.7 million in 2023.",
      "Revenue of segment 4000 was $4090.1 million in 2022.",
      "Revenue of segment 4000 was $4100.4 million in 2023, against $4090.7 million in 2022.",
    ];
    const repeated = createVerifier();
    try {
      const results = [];
      // Twice over: the second round meets the filing indexed.
      for (const text of [...answers, ...answers])
        results.push(await repeated.verify({ text, sources: [filing] }));
      const fresh = [];
      for (const text of [...answers, ...answers]) {
        const verifier = createVerifier();
        fresh.push(await verifier.verify({ text, sources: [filing] }));
        await verifier.close();
      }
      expect(withoutTimings(results)).toEqual(withoutTimings(fresh));
      expect(results.map((result) => result.passed)).toEqual([
        true,
        false,
        true,
        false,
        true,
        false,
        true,
        false,
      ]);
    } finally {
      await repeated.close();
    }
  });
});
