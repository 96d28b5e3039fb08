import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { createVerifier } from "../facade/create-verifier.js";
import type { EvidenceSource, LayerInput, VerificationLayer } from "../model/layer.js";
import { segmentClaims } from "../text/claims.js";
import { focusEvidence } from "./focus-evidence.js";

const source = (text: string, index = 0): EvidenceSource => ({ index, origin: "source", text });

/** Paragraphs about unrelated things, each distinct, none sharing a content word with the claims below. */
const filler = (count: number, seed = 0) =>
  Array.from(
    { length: count },
    (_, i) =>
      `Paragraph ${i + seed} describes weather over mountain villages, where shepherds counted sheep near lake number ${i + seed}.`,
  ).join("\n\n");

const focus = { above: 2_000, keep: 400, perAnswerCharacter: 0 };

/** `needle` as a paragraph deep in unrelated ones: `before` of them ahead, forty after. */
const haystack = (needle: string, before = 200) => `${filler(before)}\n\n${needle}\n\n${filler(40, 900)}`;

/** What focusing keeps of one source for the claims of `answer`, when it holds over 10,000 characters. */
const keptFor = (text: string, answer: string) =>
  (
    focusEvidence([source(text)], segmentClaims(answer), { ...focus, above: 10_000 })
      .evidence[0] as EvidenceSource
  ).text;

describe("focusing very large evidence on the passages that concern the claims", () => {
  it("leaves evidence at or under the threshold as it is, with no report", () => {
    const evidence = [source("Acme's revenue rose to $12.5 million in 2023.")];
    const focused = focusEvidence(evidence, segmentClaims("Acme's revenue rose."), focus);
    expect(focused.evidence).toBe(evidence);
    expect(focused.report).toBeUndefined();
    expect(focused.toOriginal(0, { start: 3, end: 9 })).toEqual({ start: 3, end: 9 });
  });

  it("keeps the passage that holds the claims' words and figures and drops unrelated ones, within the budget", () => {
    const needle = "Borealis Shipping reported freight revenue of $48.7 million for 2021.";
    const text = `${filler(40)}\n\n${needle}\n\n${filler(40, 100)}`;
    const claims = segmentClaims("Borealis Shipping had freight revenue of $48.7 million in 2021.");
    const focused = focusEvidence([source(text)], claims, focus);
    const kept = (focused.evidence[0] as EvidenceSource).text;
    expect(kept).toContain(needle);
    expect(kept.length).toBeLessThanOrEqual(focus.keep + 10);
    expect(kept).not.toContain("shepherds");
    expect(focused.report).toMatchObject({ totalCharacters: text.length, passagesKept: 1, passages: 81 });
  });

  it("finds the claims' words in any case in a long source, an 'İ' far away (whose lower case is longer) included", () => {
    // Found only by lower-casing: no figure, every word in capitals.
    const needle = "BOREALIS SHIPPING REPORTED HIGHER FREIGHT REVENUE.";
    // Over 70,000 characters between the "İ" and the needle: they are lower-cased apart.
    const text = `İstanbul office notes.\n\n${filler(700)}\n\n${needle}\n\n${filler(40, 900)}`;
    const claims = segmentClaims("Borealis Shipping reported higher freight revenue.");
    const focused = focusEvidence([source(text)], claims, { ...focus, above: 10_000 });
    expect((focused.evidence[0] as EvidenceSource).text).toContain(needle);
  });

  it("finds the claims' words in capitals written right beside an 'İ' (whose lower case is longer)", () => {
    const needle = "BOREALIS SHIPPING REPORTED HIGHER FREIGHT REVENUE.";
    // Deep in the text, so the opening passages kept when nothing matches do not hold it.
    const text = haystack(`İSTANBUL DESK: ${needle}`, 700);
    expect(keptFor(text, "Borealis Shipping reported higher freight revenue.")).toContain(needle);
  });

  it("finds a Greek word whatever case its final sigma was written in", () => {
    // The name is the only word the claim and the needle share.
    const needle = "ΟΔΥΣΣΕΥΣ.";
    expect(keptFor(haystack(needle), "Οδυσσευς sailed.")).toContain(needle);
  });

  it("finds a word written in letters outside the first plane (two UTF-16 codes each)", () => {
    // Gothic letters: the name is the only word the claim and the needle share.
    const needle = "𐌲𐌿𐌸𐌰 harbour.";
    expect(keptFor(haystack(needle), "𐌲𐌿𐌸𐌰 sailed.")).toContain(needle);
  });

  it("finds a word in capitals written in letters outside the first plane that have case", () => {
    // Deseret capitals in the source, small letters in the claim: each letter is two UTF-16 codes, and only
    // the second changes with the case.
    const needle = "𐐓𐐱𐐻𐐯𐑌𐐲 harbour.";
    expect(keptFor(haystack(needle), "𐐻𐐱𐐻𐐯𐑌𐐲 sailed.")).toContain(needle);
  });

  it("finds a term only where a word starts, not inside a longer word", () => {
    const text = `${filler(100)}\n\nThe partnership lasted a decade.\n\n${filler(100, 200)}\n\nA ship arrived at dawn.`;
    const focused = focusEvidence([source(text)], segmentClaims("The ship arrived."), focus);
    const kept = (focused.evidence[0] as EvidenceSource).text;
    expect(kept).toContain("A ship arrived at dawn.");
    expect(kept).not.toContain("partnership");
  });

  it("tells apart words whose first letters share their low byte ('š' and 'a')", () => {
    const text = `${filler(100)}\n\nAalka harbour.\n\n${filler(100, 200)}\n\nBorealis freight.`;
    const focused = focusEvidence([source(text)], segmentClaims("Šalka Borealis freight."), focus);
    const kept = (focused.evidence[0] as EvidenceSource).text;
    expect(kept).toContain("Borealis freight.");
    expect(kept).not.toContain("Aalka");
  });

  it("cuts passages at blank lines that hold spaces, tabs or carriage returns", () => {
    const needle = "Borealis Shipping carried freight across the northern provinces every winter.";
    const after = "The fleet is old and most of its wagons need repairs before the next season.";
    const text = `${filler(30)}\r\n \t\r\n${needle}\n\t\n${after}\n\n${filler(30, 50)}`;
    const focused = focusEvidence([source(text)], segmentClaims("Borealis Shipping carried freight."), focus);
    const kept = (focused.evidence[0] as EvidenceSource).text;
    expect(kept).toContain(needle);
    expect(kept).not.toContain(after);
  });

  it("finds a word by its stem, whatever its ending, and a figure only as a whole figure", () => {
    const text = `${filler(30)}\n\nShipments increases were steady.\n\nThe year 2019 was long.\n\n${filler(30, 50)}`;
    const byStem = focusEvidence([source(text)], segmentClaims("Shipments increased."), focus);
    expect((byStem.evidence[0] as EvidenceSource).text).toContain("Shipments increases were steady.");
    const byFigure = focusEvidence([source(text)], segmentClaims("It had 20 wagons."), focus);
    expect((byFigure.evidence[0] as EvidenceSource).text).not.toContain("2019");
  });

  it("joins blocks shorter than a passage to the blocks after them, so a text of tiny blocks makes few passages", () => {
    const needle = "Borealis Shipping reported freight revenue of $48.7 million for 2021.";
    const text = `${"x\n\n".repeat(20_000)}${needle}\n\n${"y\n\n".repeat(20_000)}`;
    const focused = focusEvidence([source(text)], segmentClaims(needle), { ...focus, above: 10_000 });
    // 120,000 characters in 40,001 blocks: passages of at least 64 characters each.
    expect(focused.report?.passages).toBeLessThanOrEqual(Math.ceil(text.length / 64));
    expect(focused.report?.passages).toBeGreaterThan(100);
    expect((focused.evidence[0] as EvidenceSource).text).toContain(needle);
  });

  it("keeps a short passage just before a kept one: a table's caption or scale", () => {
    const table = "Segment | 2022 | 2021\nWholesale | 310 | 287\nRetail | 95 | 90";
    const text = `${filler(30)}\n\n(in millions of euros)\n\n${table}\n\n${filler(30, 50)}`;
    const focused = focusEvidence([source(text)], segmentClaims("Wholesale was 310 in 2022."), focus);
    expect((focused.evidence[0] as EvidenceSource).text).toContain("(in millions of euros)\n\nSegment");
  });

  it("maps offsets of the focused text back to the caller's text, per source", () => {
    const first = `${filler(20)}\n\nThe Orinoco terminal handled 4,200 containers in its busiest month.\n\n${filler(20, 40)}`;
    const second = `${filler(20, 80)}\n\nThe Orinoco terminal opened in 1998 after a decade of construction work.\n\n${filler(5, 200)}`;
    const evidence = [source(first, 0), source(second, 1)];
    const focused = focusEvidence(evidence, segmentClaims("The Orinoco terminal handled 4,200 containers."), {
      ...focus,
      above: 100,
      keep: 200,
    });
    for (const [index, original] of [first, second].entries()) {
      const kept = (focused.evidence[index] as EvidenceSource).text;
      const at = kept.indexOf("Orinoco");
      expect(at).toBeGreaterThanOrEqual(0);
      const span = focused.toOriginal(index, { start: at, end: at + "Orinoco terminal".length });
      expect(original.slice(span.start, span.end)).toBe("Orinoco terminal");
    }
  });

  it("reports evidence spans of the verification in the caller's text, and says the evidence was focused", async () => {
    const needle = "Borealis Shipping reported freight revenue of $48.7 million for 2021.";
    const text = `${filler(60)}\n\n${needle}\n\n${filler(60, 100)}`;
    const verifier = createVerifier({ settings: { evidenceFocus: focus } });
    try {
      const result = await verifier.verify({
        text: "Borealis Shipping reported freight revenue of $48.7 million for 2021.",
        sources: [text],
      });
      expect(result.evidenceFocus).toMatchObject({ totalCharacters: text.length, passagesKept: 1 });
      const evidence = result.claims.flatMap((claim) => claim.evidence);
      expect(evidence.length).toBeGreaterThan(0);
      for (const item of evidence) expect(text.slice(item.span.start, item.span.end)).toBe(item.text);
      expect(result.verdict).toBe("pass");
    } finally {
      await verifier.close();
    }
  });

  it("fails closed: a claim whose support was left out of the kept passages is not passed", async () => {
    const text = `${filler(60)}\n\nBorealis Shipping moved 310 wagons of grain across the plains in 2021.\n\nThe Kestrel mine closed in 1987 after a flood filled its lower galleries.\n\n${filler(60, 100)}`;
    // Room for one passage only: the second claim's support is left out.
    const verifier = createVerifier({ settings: { evidenceFocus: { ...focus, keep: 80 } } });
    try {
      const result = await verifier.verify({
        text: "Borealis Shipping moved 310 wagons of grain in 2021. The Kestrel mine closed in 1987 after a flood.",
        sources: [text],
      });
      expect(result.evidenceFocus?.passagesKept).toBe(1);
      expect(result.verdict).not.toBe("pass");
      expect(result.passed).toBe(false);
    } finally {
      await verifier.close();
    }
  });
});

describe("an answer that shares nothing with very large evidence", () => {
  it("is read against the evidence's opening passages and found unsupported, as reading it all would", async () => {
    const text = filler(200);
    const answer = "Borealis Shipping moved grain wagons across Quebec.";
    const focused = focusEvidence([source(text)], segmentClaims(answer), focus);
    expect((focused.evidence[0] as EvidenceSource).text.startsWith("Paragraph 0 ")).toBe(true);
    expect(focused.report?.keptCharacters).toBeGreaterThan(0);
    const verifier = createVerifier({ settings: { evidenceFocus: focus } });
    const reading = createVerifier();
    try {
      const [narrowed, whole] = await Promise.all([
        verifier.verify({ text: answer, sources: [text] }),
        reading.verify({ text: answer, sources: [text] }),
      ]);
      expect(whole.evidenceFocus).toBeUndefined();
      expect(narrowed.verdict).toBe(whole.verdict);
      expect(narrowed.verdict).toBe("fail");
      expect(narrowed.skippedLayers).toEqual(whole.skippedLayers);
    } finally {
      await verifier.close();
      await reading.close();
    }
  });
});

describe("every layer reads the focused evidence", () => {
  it("hands a model-backed layer the focused context and sources, not the text as sent", async () => {
    const seen: LayerInput[] = [];
    const capturing: VerificationLayer = {
      name: "nli",
      kind: "model",
      readiness: () => ({ ready: true }),
      run: (input) =>
        Effect.sync(() => {
          seen.push(input);
          return { layer: "nli" as const, passed: true, score: 1, latencyMs: 0, details: {} };
        }),
    };
    const needle = "Borealis Shipping reported freight revenue of $48.7 million for 2021.";
    const context = `${filler(60)}\n\n${needle}\n\n${filler(60, 100)}`;
    const verifier = createVerifier({ settings: { evidenceFocus: focus }, extraLayers: [capturing] });
    try {
      const result = await verifier.verify({ text: needle, context, layers: ["grounding", "nli"] });
      expect(result.evidenceFocus?.totalCharacters).toBe(context.length);
      const input = seen[0] as LayerInput;
      expect(input.context).toContain(needle);
      expect(input.context?.length).toBeLessThan(context.length / 10);
      expect(input.evidence.map((source) => source.text)).toEqual([input.context]);
    } finally {
      await verifier.close();
    }
  });
});
