import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeScratchArray } from "./scratch-array.js";

describe("makeScratchArray", () => {
  it("hands the kept array back when it is long enough, and a longer one when it is not", () => {
    const scratch = makeScratchArray((length) => new Int32Array(length));
    const first = scratch.take(100);
    expect(first.length).toBeGreaterThanOrEqual(100);
    scratch.give(first);
    expect(scratch.take(50)).toBe(first);
    scratch.give(first);
    const longer = scratch.take(first.length + 1);
    expect(longer).not.toBe(first);
    expect(longer.length).toBeGreaterThanOrEqual(first.length + 1);
  });

  it("never hands one array to two users at once, however takes and gives nest", () => {
    // Each step either takes an array (and holds it) or gives back the most recently taken one still held.
    const steps = fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constant("give" as const)), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(steps, (plan) => {
        const scratch = makeScratchArray((length) => new Float64Array(length));
        const held: ReturnType<typeof scratch.take>[] = [];
        for (const step of plan) {
          if (step === "give") {
            const array = held.pop();
            if (array) scratch.give(array);
            continue;
          }
          const array = scratch.take(step);
          expect(array.length).toBeGreaterThanOrEqual(step);
          expect(held).not.toContain(array);
          held.push(array);
        }
      }),
    );
  });

  it("makes no longer arrays for calls that nest, however often they do", () => {
    const made: number[] = [];
    const scratch = makeScratchArray((length) => {
      made.push(length);
      return new Int32Array(length);
    });
    for (let episode = 0; episode < 40; episode++) {
      const outer = scratch.take(100);
      const inner = scratch.take(100);
      scratch.give(inner);
      scratch.give(outer);
    }
    expect(Math.max(...made)).toBe(100);
    // Of two arrays given back, in either order, the longer is kept.
    const long = scratch.take(1_000);
    const short = scratch.take(10);
    scratch.give(long);
    scratch.give(short);
    expect(scratch.take(1_000)).toBe(long);
  });

  it("makes few arrays for a growing input: each new one at least twice the last", () => {
    let made = 0;
    const scratch = makeScratchArray((length) => {
      made += 1;
      return new Uint8Array(length);
    });
    for (let length = 1; length <= 100_000; length += 97) scratch.give(scratch.take(length));
    expect(made).toBeLessThanOrEqual(Math.ceil(Math.log2(100_000)) + 1);
  });
});
