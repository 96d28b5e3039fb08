import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { resetResidentPeak, residentMemory } from "./resident-memory.js";

const fullCollection = (): (() => void) => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
};

describe("residentMemory", () => {
  it("gives the resident memory and a peak at least as large", () => {
    const memory = residentMemory(false);
    expect(memory.residentMb).toBeGreaterThan(0);
    expect(memory.peakResidentMb).toBeGreaterThanOrEqual(memory.residentMb);
    expect(memory.peakSince).toBe("start");
  });

  it.runIf(existsSync("/proc/self/clear_refs"))(
    "starts a new peak on Linux: memory held and freed before the reset is not in the peak after it",
    async () => {
      const collect = fullCollection();
      let held: Uint8Array | undefined = new Uint8Array(192 * 2 ** 20).fill(1);
      const whileHeld = residentMemory(false);
      expect(whileHeld.peakResidentMb).toBeGreaterThanOrEqual(whileHeld.residentMb);
      held = undefined;
      await new Promise((resolve) => setImmediate(resolve));
      collect();
      expect(resetResidentPeak()).toBe(true);
      const after = residentMemory(true);
      expect(held).toBeUndefined();
      expect(after.peakSince).toBe("measurement");
      // The 192 MB were freed before the reset: the new peak is what the process holds now, not the old one.
      expect(after.peakResidentMb).toBeLessThan(whileHeld.peakResidentMb - 100);
      expect(after.peakResidentMb).toBeGreaterThanOrEqual(after.residentMb);
    },
  );
});
