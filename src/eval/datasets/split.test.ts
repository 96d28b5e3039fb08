import { describe, expect, it } from "vitest";
import { fnv1a } from "../../model/fnv1a.js";
import type { EvalRecord } from "../record.js";
import { assignSplit } from "./split.js";

const record = (id: string, meta: Record<string, unknown> = {}): EvalRecord => ({
  id,
  dataset: "demo",
  task: "general",
  context: null,
  question: null,
  response: "r",
  label: "supported",
  spans: [],
  meta,
});

const plan = { tuneOn: "dev", reportOn: "test" };

describe("assignSplit", () => {
  it("uses meta.split when the record declares one", () => {
    expect(assignSplit(record("a", { split: "evaluation" }), plan)).toBe("evaluation");
  });

  it("hashes the id into the tune or report split when none is declared, the same way every time", () => {
    const ids = Array.from({ length: 400 }, (_, index) => `id-${index}`);
    const first = ids.map((id) => assignSplit(record(id), plan));
    const second = ids.map((id) => assignSplit(record(id), plan));
    expect(first).toEqual(second);
    const dev = first.filter((split) => split === "dev").length;
    expect(dev + first.filter((split) => split === "test").length).toBe(400);
    // A fair hash puts roughly half on each side.
    expect(dev).toBeGreaterThan(150);
    expect(dev).toBeLessThan(250);
  });

  it("leaves the split undefined without a plan or a declaration", () => {
    expect(assignSplit(record("a"), undefined)).toBeUndefined();
  });

  it("implements 32-bit FNV-1a", () => {
    // Reference values of FNV-1a 32: "" -> 0x811c9dc5, "a" -> 0xe40c292c
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
  });
});
