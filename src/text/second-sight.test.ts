import { describe, expect, it } from "vitest";
import { fingerprintOf, makeSecondSight } from "./second-sight.js";

describe("admission on second sight", () => {
  it("admits texts the second time they are seen, not the first", () => {
    const admit = makeSecondSight({ remember: 8, admitAtOnceChars: 1_000 });
    expect(admit(["The bridge opened in 1932."])).toBe(false);
    expect(admit(["The tunnel opened in 1950."])).toBe(false);
    expect(admit(["The bridge opened in 1932."])).toBe(true);
    expect(admit(["The bridge opened in 1932."])).toBe(true);
  });

  it("admits large texts at once, counting all of them together", () => {
    const admit = makeSecondSight({ remember: 8, admitAtOnceChars: 100 });
    expect(admit(["x".repeat(100)])).toBe(true);
    expect(admit(["x".repeat(60), "y".repeat(40)])).toBe(true);
    expect(admit(["x".repeat(99)])).toBe(false);
  });

  it("forgets the oldest fingerprint once it remembers its limit", () => {
    const admit = makeSecondSight({ remember: 3, admitAtOnceChars: 1_000 });
    for (const text of ["a", "b", "c", "d"]) expect(admit([text])).toBe(false);
    // "a" was the oldest of four: forgotten, so seen "first" again; "d" is still remembered.
    expect(admit(["a"])).toBe(false);
    expect(admit(["d"])).toBe(true);
  });

  it("remembers nothing when told to remember nothing, and refuses a limit that is not a count", () => {
    const admit = makeSecondSight({ remember: 0, admitAtOnceChars: 1_000 });
    expect(admit(["a"])).toBe(false);
    expect(admit(["a"])).toBe(false);
    expect(() => makeSecondSight({ remember: -1, admitAtOnceChars: 1 })).toThrow(RangeError);
    expect(() => makeSecondSight({ remember: 1.5, admitAtOnceChars: 1 })).toThrow(RangeError);
  });

  it("tells apart texts split differently and texts in another order", () => {
    expect(fingerprintOf(["ab", "c"])).not.toBe(fingerprintOf(["a", "bc"]));
    expect(fingerprintOf(["a", "b"])).not.toBe(fingerprintOf(["b", "a"]));
    expect(fingerprintOf(["a", "b"])).toBe(fingerprintOf(["a", "b"]));
    expect(fingerprintOf([])).toBeGreaterThanOrEqual(0);
  });
});
