import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { collectGarbage } from "../testing/measured-cost.js";
import { canonicalJson } from "./canonical-json.js";

/** The definition canonicalJson must match byte for byte: audit chains written before it hash this way. */
const reference = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );

const key = fc.oneof(
  fc.string(),
  fc.nat().map(String),
  fc.constantFrom(
    "",
    "0",
    "01",
    "-1",
    "1.5",
    "4294967295",
    "4294967294",
    "__proto__",
    "constructor",
    "é",
    "😀",
  ),
);
const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(-0),
  fc.date({ noInvalidDate: true }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 6 }),
}));

/**
 * `{ [key]: value, z: 0 }` as an object without a prototype, which V8 keeps as a dictionary from the start: its
 * keys are held by the object alone, not also by the object shapes V8 shares between objects with the same keys
 * (which keep a new key alive for a while after its last object), so what is left once it is gone is what the
 * writer kept.
 */
const dictionaryObject = (key: string, value: number): Record<string, number> => {
  const object = Object.create(null) as Record<string, number>;
  object[key] = value;
  object.z = 0;
  return object;
};

describe("canonicalJson", () => {
  it("writes exactly what JSON.stringify with a key-sorting replacer writes", () => {
    fc.assert(
      fc.property(value, (generated) => {
        expect(canonicalJson(generated)).toBe(reference(generated));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ["keys sorted at every depth", { b: 1, a: { d: [3, { z: 1, y: 2 }], c: 2 } }],
    ["array-index keys first, in numeric order", { b: 1, 10: "x", 2: "y", a: 0 }],
    [
      "undefined and functions left out of objects, null in arrays",
      { a: undefined, f: () => 1, l: [undefined, () => 1] },
    ],
    [
      "toJSON, boxed primitives, NaN and -0",
      { d: new Date(0), n: Object(5), s: Object("t"), x: Number.NaN, z: -0 },
    ],
    ["a Map has no own keys", { m: new Map([["k", 1]]) }],
  ])("matches the reference: %s", (_name, input) => {
    expect(canonicalJson(input)).toBe(reference(input));
  });

  it("gives undefined where JSON.stringify does, and refuses cycles and bigints as it does", () => {
    expect(canonicalJson(undefined)).toBeUndefined();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
  });

  it("writes objects of shapes it has met before as the reference does, within and past the orders it keeps", () => {
    const values: unknown[] = [];
    // One shape many times, as a result's claims or spans are.
    for (let i = 0; i < 50; i++)
      values.push({ kind: "x", span: { start: i, end: i + 1 }, text: "t", score: i });
    // More shapes sharing a first key than are kept per first key, and one key list in two orders.
    for (let i = 0; i < 20; i++) values.push({ a: 1, [`k${i}`]: i, b: 2 });
    values.push({ a: 1, b: 2, k0: 0 }, { a: 1, k0: 0, b: 2 });
    // Array-index keys, which come first whatever the insertion order.
    values.push({ 0: 1, b: 2, a: 3 }, { 0: 1, a: 3, b: 2 }, { 7: 1, 0: 2, b: 3 });
    // More shapes than are kept in all, and shapes with a key too long to keep.
    for (let i = 0; i < 1_500; i++) values.push({ [`f${i}`]: 1, e: 2, d: 3 });
    for (let i = 0; i < 20; i++) values.push({ [`${"q".repeat(80)}${i % 3}`]: i, c: 1, b: 0 });
    // Each value twice: the second time its shape's order is known, or known not to be kept.
    for (const round of [1, 2])
      for (const value of values) expect(canonicalJson(value), `round ${round}`).toBe(reference(value));
  });

  it("keeps no long key it has written: distinct keys of 100 KB leave no more memory than JSON.stringify does", async () => {
    // A fresh copy of the module: the property tests above have filled the kept keys' map to its count.
    vi.resetModules();
    const fresh = (await import("./canonical-json.js")).canonicalJson;
    /** Heap left after writing 100 objects, each with a distinct key of 100 KB, by `write`. */
    const retainedBy = (write: (value: unknown) => string | undefined, tag: string) => {
      collectGarbage();
      const before = process.memoryUsage().heapUsed;
      // Two keys, so the object's key order is worked out too (and must not be kept for such keys).
      for (let i = 0; i < 100; i++)
        expect(write(dictionaryObject(`${tag}${i}${"k".repeat(100_000)}`, i))).toContain(`${i},`);
      collectGarbage();
      return process.memoryUsage().heapUsed - before;
    };
    // The objects are dictionaries (see `dictionaryObject`): once written, nothing but the writer can hold a key.
    const byStringify = retainedBy((value) => JSON.stringify(value), "s");
    const byCanonical = retainedBy(fresh, "c");
    // Kept, the keys' quoted forms held 10 MB more, and so did the key lists kept with their sorted order.
    expect(byCanonical - byStringify).toBeLessThan(4 * 1024 * 1024);
  });
});
