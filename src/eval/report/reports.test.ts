import { describe, expect, it } from "vitest";
import { calibrationPairs, calibrationPairsToJsonl } from "../calibration-data.js";
import type { EvalRun } from "../runner.js";
import { csvField, predictionsToCsv } from "./csv-report.js";
import { highlightSpans } from "./highlight.js";
import { renderHtmlReport, worstMisses } from "./html-report.js";
import { buildReport, reportToJson } from "./json-report.js";
import { samplePrediction } from "./test-predictions.js";

const predictions = [
  samplePrediction({
    id: "a,1",
    label: "hallucinated",
    score: 0.9,
    failingLayers: ["grounding", "numbers"],
    flaggedClaims: [
      { span: { start: 0, end: 9 }, verdict: "contradicted", text: "The tower", issues: ["year <b>"] },
    ],
    layerScores: [{ layer: "grounding", score: 0.1, passed: false }],
  }),
  samplePrediction({
    id: "b",
    label: "hallucinated",
    score: 0.2,
    response: "<script>alert(1)</script>",
    goldSpans: [{ start: 0, end: 8 }],
  }),
  samplePrediction({
    id: "c",
    label: "supported",
    score: 0.7,
    error: 'said "no"',
    flaggedClaims: [
      { span: { start: 23, end: 27 }, verdict: "unsupported", text: "1823", issues: ["year <b>"] },
    ],
  }),
];
const run: EvalRun = { files: ["data/x.jsonl"], predictions, malformed: [], tuning: undefined };

describe("CSV of predictions", () => {
  it("has one row per record with quoted fields where needed", () => {
    const csv = predictionsToCsv(predictions).trimEnd().split("\n");
    expect(csv[0]).toBe(
      "id,dataset,task,split,label,score,predicted,passed,latency_ms,failing_layers,skipped_layers,error",
    );
    expect(csv[1]).toBe(
      '"a,1",demo,general,,hallucinated,0.900000,hallucinated,false,1.500,grounding;numbers,,',
    );
    expect(csv[3]).toContain('"said ""no"""');
    expect(csv).toHaveLength(4);
  });

  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['q"q', '"q""q"'],
    ["two\nlines", '"two\nlines"'],
  ])("quotes %j as %j", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("JSON report", () => {
  it("writes undefined metrics as null, never NaN or a missing key", () => {
    const onlyPositives: EvalRun = { ...run, predictions: [predictions[0]!] };
    const parsed = JSON.parse(reportToJson(buildReport(onlyPositives)));
    expect(parsed.overall.auroc).toBeNull();
    expect(parsed.overall.fpr).toBeNull();
    expect(parsed.overall.recall).toBe(1);
    expect(parsed.datasets.demo.n).toBe(1);
    expect(parsed.decision).toEqual({ rule: "verifier-verdict" });
  });
});

describe("calibration data", () => {
  it("writes one (layer, score, label) pair per layer result", () => {
    const pairs = calibrationPairs(predictions);
    expect(pairs).toEqual([
      { layer: "grounding", score: 0.1, label: "hallucinated", id: "a,1", dataset: "demo" },
    ]);
    expect(calibrationPairsToJsonl(pairs)).toBe(`${JSON.stringify(pairs[0])}\n`);
    expect(calibrationPairsToJsonl([])).toBe("");
  });
});

describe("HTML report", () => {
  it("is self-contained, escapes record text and holds the charts and tables", () => {
    const html = renderHtmlReport(buildReport(run), predictions);
    expect(html).toContain('<svg id="roc-curve"');
    expect(html).toContain('<svg id="reliability-diagram"');
    expect(html).toContain('id="dataset-table"');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="http/i);
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("year &lt;b&gt;");
  });

  it("lists missed hallucinations by lowest score and false alarms by highest", () => {
    const misses = worstMisses(predictions, 5);
    expect(misses.missedHallucinations.map((prediction) => prediction.id)).toEqual(["b"]);
    expect(misses.falseAlarms.map((prediction) => prediction.id)).toEqual(["c"]);
  });

  it("highlights flagged and gold spans, clipping spans past the end", () => {
    // flagged [0,5) gold [3,8): "abc" flagged, "de" both, "fgh" gold, "ij" plain
    expect(
      highlightSpans(
        "abcdefghij",
        [{ start: 0, end: 5 }],
        [
          { start: 3, end: 8 },
          { start: 20, end: 30 },
        ],
      ),
    ).toBe(
      '<mark class="flagged">abc</mark><mark class="flagged gold">de</mark><mark class="gold">fgh</mark>ij',
    );
  });
});
