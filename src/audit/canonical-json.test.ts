import fc from "fast-check";
import { describe, expect, it } from "vitest";
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
});
