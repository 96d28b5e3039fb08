import { describe, expect, it } from "vitest";
import { compileCost, parseV8Trace } from "../bench/libraries/v8-trace.js";

// Lines as V8 11 prints them with --trace-opt --trace-deopt-verbose (addresses made up), with other output between.
const trace = [
  "[marking 0x1 <JSFunction findPairs (sfi = 0xa1)> for optimization to TURBOFAN, ConcurrencyMode::kConcurrent, reason: hot and stable]",
  "[completed compiling 0x1 <JSFunction findPairs (sfi = 0xa1)> (target TURBOFAN) - took 0.5, 40.0, 1.5 ms]",
  "[completed compiling 0x2 <JSFunction (sfi = 0xb2)> (target TURBOFAN) - took 0.25, 1.5, 0.25 ms]",
  "[completed compiling 0x3 <JSFunction <instance_members_initializer> (sfi = 0xc3)> (target TURBOFAN) - took 0.25, 0.5, 0.25 ms]",
  "[completed compiling 0x4 <JSFunction groupBy (sfi = 0xd4)> (target TURBOFAN) OSR - took 0.5, 2, 0.5 ms]",
  "dataset  n  precision",
  "[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x1 <JSFunction findPairs (sfi = 0xa1)>, 0x9 <Code TURBOFAN>, opt id 1, bytecode offset 54, deopt exit 3, FP to SP delta 248, caller SP 0x7, pc 0x8]",
  "            ;;; deoptimize at <file:///repo/dist/search.js:20:27> inlined at <file:///repo/dist/search.js:10:32>",
  "  reading input frame findPairs => bytecode_offset=62, args=8, height=46, retval=0(#0); inputs:",
  "[bailout end. took 0.9 ms]",
  "[completed compiling 0x1 <JSFunction findPairs (sfi = 0xa1)> (target TURBOFAN) - took 0.5, 56.0, 1.5 ms]",
  "[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x1 <JSFunction findPairs (sfi = 0xa1)>, 0x9 <Code TURBOFAN>, opt id 2, bytecode offset 54, deopt exit 3, FP to SP delta 248, caller SP 0x7, pc 0x8]",
  "            ;;; deoptimize at <file:///repo/dist/search.js:20:27> inlined at <file:///repo/dist/search.js:10:32>",
  "[bailout (kind: deopt-soft, reason: Insufficient type feedback for call): begin. deoptimizing 0x2 <JSFunction (sfi = 0xb2)>, 0x9 <Code TURBOFAN>, opt id 3, bytecode offset 7, deopt exit 1, FP to SP delta 8, caller SP 0x7, pc 0x8]",
  "[bailout (kind: deopt-lazy, reason: (unknown)): begin. deoptimizing 0x5 <JSFunction neverCompiled (sfi = 0xe5)>, 0x9 <Code TURBOFAN>, opt id 4, bytecode offset 0, deopt exit 0, FP to SP delta 8, caller SP 0x7, pc 0x8]",
].join("\n");

describe("the compile-cost bench's trace reader", () => {
  it("reads each compilation with its three phases added up, anonymous and bracketed names included", () => {
    const { compilations } = parseV8Trace(trace);
    expect(compilations.map(({ function: name, ms, osr }) => [name, ms, osr])).toEqual([
      ["findPairs", 42, false],
      ["(anonymous)", 2, false],
      ["<instance_members_initializer>", 1, false],
      ["groupBy", 3, true],
      ["findPairs", 58, false],
    ]);
  });

  it("reads each deoptimisation's function, kind, reason and the position on the lines after it", () => {
    const { deoptimisations } = parseV8Trace(trace, (path) => path.replace("file:///repo/", ""));
    expect(deoptimisations).toEqual([
      {
        function: "findPairs",
        sfi: "0xa1",
        kind: "deopt-eager",
        reason: "wrong map",
        at: "dist/search.js:20:27 inlined at dist/search.js:10:32",
      },
      {
        function: "findPairs",
        sfi: "0xa1",
        kind: "deopt-eager",
        reason: "wrong map",
        at: "dist/search.js:20:27 inlined at dist/search.js:10:32",
      },
      {
        function: "(anonymous)",
        sfi: "0xb2",
        kind: "deopt-soft",
        reason: "Insufficient type feedback for call",
        at: "",
      },
      { function: "neverCompiled", sfi: "0xe5", kind: "deopt-lazy", reason: "(unknown)", at: "" },
    ]);
  });

  it("charges each deoptimisation its function's mean compile time and ranks the places by it", () => {
    const cost = compileCost(parseV8Trace(trace));
    expect(cost.compilations).toBe(5);
    expect(cost.compileMs).toBeCloseTo(106, 9);
    expect(cost.deoptimisations).toBe(4);
    expect(cost.reasons).toEqual([
      { reason: "wrong map", count: 2 },
      { reason: "(unknown)", count: 1 },
      { reason: "Insufficient type feedback for call", count: 1 },
    ]);
    // findPairs compiled twice in 100 ms: each of its two deoptimisations costs 50; the anonymous function's 2;
    // a function never seen compiling costs nothing.
    expect(cost.recompileMs).toBeCloseTo(102, 9);
    expect(cost.places.map(({ function: name, count, recompileMs }) => [name, count, recompileMs])).toEqual([
      ["findPairs", 2, 100],
      ["(anonymous)", 1, 2],
      ["neverCompiled", 1, 0],
    ]);
    expect(cost.functions[0]).toEqual({ function: "findPairs", count: 2, ms: 100 });
  });
});
