import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../../model/layer.js";
import { prepareSources, type SourcesReader } from "../derive/prepared-sources.js";
import { validateNumbers } from "./validate-numbers.js";

const source = (text: string): EvidenceSource[] => [{ index: 0, origin: "source", text }];

const statusOf = (text: string, evidence: string, question?: string) =>
  validateNumbers({ text, evidence: source(evidence), ...(question ? { question } : {}) }).numbers.map(
    (n) => [n.text, n.status],
  );

const eps = "Broadcom reported EPS of $0.50 for the quarter against a consensus estimate of $0.45.";
const options =
  "AVGO options today: total volume was 20,875 contracts. Volume for the June 21 expiration: 20,893. " +
  "Volume for the June 28 expiration: 76,378.";
const table = [
  "Table:",
  " |  | Years Ended September 30, | ",
  " | 2019 | 2018 | 2017",
  "Fixed Price | $  1,452.4 | $  1,146.2 | $  1,036.9",
  "Other | 44.1 | 56.7 | 70.8",
  "Total sales | $1,496.5 | $1,202.9 | $1,107.7",
  "",
  "The table below presents total net sales disaggregated by contract type (in millions):",
].join("\n");

describe("validateNumbers: the field cases", () => {
  it("flags the 10.96% earnings surprise as suspicious, with 11.11 and its formula", () => {
    const result = validateNumbers({
      text: "EPS came in at $0.50 against $0.45 expected, an earnings surprise of 10.96%.",
      evidence: source(eps),
    });
    expect(result.suspicious).toHaveLength(1);
    expect(result.suspicious[0]).toMatchObject({
      text: "10.96%",
      expected: "11.11%",
      formula: "(0.50 - 0.45) / 0.45 * 100 = 11.11",
    });
    expect(result.exactMatches).toBe(2);
  });

  it("accepts the correct 11.11% as derived", () => {
    const result = validateNumbers({
      text: "The earnings surprise was 11.11% ($0.50 vs $0.45).",
      evidence: source(eps),
    });
    expect(result.derived.map((n) => n.formula)).toEqual(["(0.50 - 0.45) / 0.45 * 100 = 11.11"]);
    expect(result.suspicious).toEqual([]);
    expect(result.orphanNumbers).toEqual([]);
  });

  it("flags 97,271 presented as the total as a partial aggregation when the source's total is 20,875", () => {
    const result = validateNumbers({
      text: "Total daily options volume for AVGO was 97,271 contracts.",
      evidence: source(options),
    });
    expect(result.partialAggregations).toEqual([
      expect.objectContaining({ claimedTotal: "97,271", sourceTotal: "20,875", items: ["20,893", "76,378"] }),
    ]);
  });

  it("does not flag the source's own total", () => {
    const result = validateNumbers({
      text: "Total daily options volume for AVGO was 20,875.",
      evidence: source(options),
    });
    expect(result.partialAggregations).toEqual([]);
    expect(result.exactMatches).toBe(1);
  });
});

describe("validateNumbers: inline calculations", () => {
  it.each([
    ["The surprise was (0.50-0.45)/0.45*100 = 10.96%.", false, "11.11"],
    ["The surprise was (0.50-0.45)/0.45*100 = 11.11%.", true, "11.11"],
    ["Together 20,893 + 76,378 = 97,271 contracts.", true, "97271"],
    ["Together 20,893 + 76,378 = 97,721 contracts.", false, "97271"],
  ])("%s", (text, correct, computed) => {
    const [calculation] = validateNumbers({ text, evidence: source(`${eps} ${options}`) }).inlineCalculations;
    expect(calculation).toMatchObject({ correct, computed });
  });

  it("reports a wrong written result as suspicious with the recomputed value", () => {
    const result = validateNumbers({
      text: "The surprise was (0.50-0.45)/0.45*100 = 10.96%.",
      evidence: source(eps),
    });
    expect(result.suspicious).toEqual([
      expect.objectContaining({ text: "10.96%", reason: "inline-calculation", expected: "11.11" }),
    ]);
  });
});

describe("validateNumbers: tracing", () => {
  it.each([
    ["The change was -12.6 million.", "derived"],
    ["The percentage change was -22.22%.", "derived"],
    ["Other sales were $44.1 million in 2019.", "exact"],
    ["Other sales were $44,100 thousand in 2019.", "exact"],
    ["Other sales were 44,100,000 in 2019.", "exact"],
    ["Total sales were $1.5 billion.", "close"],
    ["The average was $1,211.83 million.", "derived"],
    ["The change was 12.6 million.", "suspicious"],
    ["The change was -12.6 billion.", "suspicious"],
    ["Total sales were $1,496.6 million.", "suspicious"],
    ["The percentage change was -28.57%.", "orphan"],
    ["Sales reached $9,999.9 million.", "orphan"],
  ])("%s -> %s", (text, status) => {
    expect(statusOf(text, table)[0]?.[1]).toBe(status);
  });

  it("knows what a sign flip should have been", () => {
    const [check] = validateNumbers({
      text: "The change was 12.6 million.",
      evidence: source(table),
    }).numbers;
    expect(check).toMatchObject({ status: "suspicious", reason: "sign", expected: "-12.6 million" });
  });

  it("knows what a scale slip should have been", () => {
    const [check] = validateNumbers({
      text: "The change was -12.6 billion.",
      evidence: source(table),
    }).numbers;
    expect(check).toMatchObject({ status: "suspicious", reason: "scale", expected: "-12.6 million" });
  });

  it("reads a decline written without a sign", () => {
    expect(statusOf("Other sales decreased by 12.6 million.", table)[0]?.[1]).toBe("derived");
  });

  it("matches a fraction in the source to a percent in the answer", () => {
    expect(statusOf("The margin was 12.5%.", "Gross margin ratio: 0.125")[0]?.[1]).toBe("exact");
  });

  it("skips years, dates and ordinals", () => {
    expect(statusOf("On March 5, 2020, the 3rd filing for 2019 came out.", "Nothing numeric here.")).toEqual(
      [],
    );
  });

  it("traces numbers to recorded calculator outputs", () => {
    const result = validateNumbers({
      text: "The ratio is 1.2345678.",
      evidence: [],
      calculations: [{ expression: "1.2345678 * 1", result: "1.2345678" }],
    });
    expect(result.numbers[0]).toMatchObject({ status: "exact", source: -1 });
  });

  it("counts numbers past the limit as skipped", () => {
    const result = validateNumbers({ text: "1 2 3 4 5", evidence: source("1 2 3") }, { maxAnswerNumbers: 3 });
    expect([result.numbers.length, result.skipped]).toEqual([3, 2]);
  });
});

describe("validateNumbers: partial aggregation in a table", () => {
  const statement = [
    " | 2019 | 2018",
    "Segment A | 120.0 | 100.0",
    "Segment B | 80.0 | 70.0",
    "Segment C | 50.0 | 40.0",
    "Total segments | 250.0 | 210.0",
    "(in millions)",
  ].join("\n");

  it("flags two segments summed and presented as the total", () => {
    const result = validateNumbers({
      text: "Total segment revenue in 2019 was $200.0 million.",
      evidence: source(statement),
    });
    expect(result.partialAggregations[0]).toMatchObject({ sourceTotal: "250.0", items: ["120.0", "80.0"] });
  });

  it("accepts the stated total and a sum that is not presented as a total", () => {
    expect(
      validateNumbers({
        text: "Total segment revenue in 2019 was $250.0 million.",
        evidence: source(statement),
      }).partialAggregations,
    ).toEqual([]);
    expect(
      validateNumbers({ text: "Segments A and B together made $200.0 million.", evidence: source(statement) })
        .partialAggregations,
    ).toEqual([]);
  });

  it("reads a change in the period order of the column headers", () => {
    expect(statusOf("The change in Segment A revenue was $20.0 million.", statement)[0]?.[1]).toBe("derived");
    expect(statusOf("The change in Segment A revenue was -$20.0 million.", statement)[0]?.[1]).toBe(
      "suspicious",
    );
  });
});

describe("validateNumbers: tolerances", () => {
  it("treats a number within the configured relative tolerance as a close match", () => {
    const text = "Total sales were $1,500.0 million.";
    const table = "Total sales | 1,496.5 (in millions)";
    expect(validateNumbers({ text, evidence: source(table) }).numbers[0]?.status).toBe("suspicious");
    expect(
      validateNumbers({ text, evidence: source(table) }, { closeRelative: 0.01 }).numbers[0]?.status,
    ).toBe("close");
  });

  it("allows approximations their looser tolerance", () => {
    expect(statusOf("Volume was about 21,000 contracts.", options)[0]?.[1]).toBe("close");
    expect(statusOf("Volume was 21,000 contracts.", options)[0]?.[1]).toBe("suspicious");
  });
});

describe("validateNumbers: percents and amounts", () => {
  const pension = ["Table (in millions):", " | 2019 | 2018", "Accrued pension liabilities | 3.4 | 3.3"].join(
    "\n",
  );
  const margins = ["Table:", " | 2019 | 2018", "Gross margin | 4.0% | 3.3%"].join("\n");
  it.each([
    ["The percentage change in Accrued pension liabilities in 2019 from 2018 was 3.03%.", pension, "derived"],
    // 3.3 is an amount (3.3 million), not a percent: 3.30% does not match it.
    ["The percentage change in Accrued pension liabilities in 2019 from 2018 was 3.30%.", pension, "orphan"],
    ["The gross margin in 2018 was 3.30%.", margins, "exact"],
  ])("%s -> %s", (text, evidence, status) => {
    expect(statusOf(text, evidence).map(([, found]) => found)).toEqual([status]);
  });
});

describe("validateNumbers: an answer without a quantity", () => {
  /** `prepareSources`, counting its calls. */
  const countingReader = () => {
    let calls = 0;
    const read: SourcesReader = (evidence, options) => {
      calls += 1;
      return prepareSources(evidence, options);
    };
    return { read, calls: () => calls };
  };

  it("reads no source, and gives what reading them would (dates and years are not quantities)", () => {
    const text = "Northwind filed on March 3, 2021, as it did in 2019; some people left.";
    const skipped = countingReader();
    const result = validateNumbers({ text, evidence: source(table) }, { readSources: skipped.read });
    expect(skipped.calls()).toBe(0);
    expect(result.numbers).toEqual([]);
    expect(result.sourceTruncated).toBeUndefined();
    // The same answer with a quantity added reads the sources; without it the result is the one of no figures.
    const read = countingReader();
    const withFigure = validateNumbers(
      { text: `${text} Other sales were 44.1.`, evidence: source(table) },
      { readSources: read.read },
    );
    expect(read.calls()).toBe(1);
    expect(withFigure.numbers.map((n) => [n.text, n.status])).toEqual([["44.1", "exact"]]);
    expect(result).toEqual({ ...withFigure, exactMatches: 0, numbers: [] });
  });

  it("still reads the sources when they could hold more figures than it reads, and reports the limit", () => {
    const reader = countingReader();
    const result = validateNumbers(
      { text: "Nothing here is an amount.", evidence: source(table) },
      { readSources: reader.read, maxSourceNumbers: 5 },
    );
    expect(reader.calls()).toBe(1);
    expect(result.sourceTruncated).toBe(true);
  });
});
