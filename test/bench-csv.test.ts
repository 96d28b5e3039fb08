import { describe, expect, it } from "vitest";
import { parseCsv } from "../bench/libraries/csv.js";
import { predictionsToCsv } from "../src/eval/report/csv-report.js";
import { samplePrediction } from "../src/eval/report/test-predictions.js";

describe("the benches' CSV reader", () => {
  it("reads back every field predictionsToCsv writes, commas, quotes and line breaks in a field included", () => {
    const predictions = [
      samplePrediction({ id: "plain-1", label: "supported", score: 0.1 }),
      samplePrediction({ id: 'rec,2 "quoted"', label: "hallucinated", score: 0.9, latencyMs: 12.25 }),
      samplePrediction({
        id: "rec-3",
        label: "supported",
        score: 0.2,
        error: "timed out,\nthen\r\nretried",
        failingLayers: ["grounding", "numbers"],
      }),
    ];
    const rows = parseCsv(predictionsToCsv(predictions));
    expect(rows).toHaveLength(4);
    const header = rows[0] as string[];
    const field = (row: number, name: string) => (rows[row] as string[])[header.indexOf(name)];
    expect(rows.every((row) => row.length === header.length)).toBe(true);
    expect(field(1, "id")).toBe("plain-1");
    expect(field(2, "id")).toBe('rec,2 "quoted"');
    expect(field(2, "latency_ms")).toBe("12.250");
    expect(field(2, "label")).toBe("hallucinated");
    expect(field(3, "error")).toBe("timed out,\nthen\r\nretried");
    expect(field(3, "failing_layers")).toBe("grounding;numbers");
  });

  it("ends a row at a line break outside quotes, CRLF as one, and adds none for a final one", () => {
    expect(parseCsv("a,b\r\nc,\n")).toEqual([
      ["a", "b"],
      ["c", ""],
    ]);
    expect(parseCsv('"x""y",z')).toEqual([['x"y', "z"]]);
    // An empty last field without a final line break is still a field.
    expect(parseCsv("a,")).toEqual([["a", ""]]);
  });
});
