import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { EvalRecord } from "../record.js";
import { type MalformedLine, readEvalRecords } from "./read-records.js";

const good = (id: string) =>
  JSON.stringify({
    id,
    dataset: "demo",
    task: "general",
    context: "ctx",
    question: null,
    response: "text",
    label: "supported",
    spans: [],
    meta: {},
  });

let file: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "veracity-eval-read-"));
  file = join(dir, "mixed.jsonl");
  // line 1 good, 2 blank, 3 not JSON, 4 wrong label, 5 good without optional fields
  const minimal = JSON.stringify({
    id: "b",
    dataset: "demo",
    task: "general",
    response: "r",
    label: "hallucinated",
  });
  await writeFile(
    file,
    [good("a"), "", "{not json", JSON.stringify({ ...JSON.parse(good("x")), label: "maybe" }), minimal].join(
      "\n",
    ),
  );
});

const collect = async (policy: "skip" | "fail", maxRecords = 100) => {
  const records: EvalRecord[] = [];
  const malformed: MalformedLine[] = [];
  for await (const record of readEvalRecords(file, {
    onMalformed: policy,
    maxRecords,
    reportMalformed: (line) => malformed.push(line),
  })) {
    records.push(record);
  }
  return { records, malformed };
};

describe("readEvalRecords", () => {
  it("skips malformed lines but reports each with its line number", async () => {
    const { records, malformed } = await collect("skip");
    expect(records.map((record) => record.id)).toEqual(["a", "b"]);
    expect(malformed.map((line) => line.lineNumber)).toEqual([3, 4]);
    expect(malformed[0]!.reason).toMatch(/not JSON/);
    expect(malformed[1]!.reason).toMatch(/label/);
  });

  it("fills the optional fields of the common form with their defaults", async () => {
    const { records } = await collect("skip");
    expect(records[1]).toMatchObject({ context: null, question: null, spans: [], meta: {} });
  });

  it("fails the run at the first malformed line under the fail policy", async () => {
    await expect(collect("fail")).rejects.toMatchObject({
      _tag: "InputError",
      code: "malformed-line",
      message: expect.stringContaining(":3:"),
    });
  });

  it("stops with an InputError beyond the record limit", async () => {
    await expect(collect("skip", 1)).rejects.toMatchObject({ _tag: "InputError", code: "too-many-records" });
  });

  it("reports a missing file as an InputError", async () => {
    const read = async () => {
      for await (const _ of readEvalRecords(join(tmpdir(), "veracity-no-such-file.jsonl"), {
        onMalformed: "skip",
        maxRecords: 10,
        reportMalformed: () => {},
      })) {
        // nothing
      }
    };
    await expect(read()).rejects.toMatchObject({ _tag: "InputError", code: "unreadable-file" });
  });
});
