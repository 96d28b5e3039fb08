/**
 * Reads what V8 prints with `--trace-opt --trace-deopt-verbose`: each optimising compilation (the function,
 * and how long its three phases took) and each deoptimisation (the function it threw out, why, and where in
 * the source it happened). A function is told apart by its shared function info's address (`sfi`), since
 * anonymous functions share the empty name and a bundle may hold two functions of one name.
 */

/** One compilation V8 finished. */
export interface Compilation {
  readonly function: string;
  readonly sfi: string;
  /** The three phases' times added up (prepare, execute, finalize), in ms. */
  readonly ms: number;
  /** An on-stack replacement (a loop optimised while it ran), not a call's compilation. */
  readonly osr: boolean;
}

/** One deoptimisation: the function whose optimised code was thrown out, why, and where. */
export interface Deoptimisation {
  readonly function: string;
  readonly sfi: string;
  /** "deopt-eager", "deopt-lazy", "deopt-soft"... */
  readonly kind: string;
  /** "wrong map", "Insufficient type feedback for call"... */
  readonly reason: string;
  /** The source position V8 names (`file:line:column`, with `inlined at` when it happened in an inlined callee), or "" when the trace has none. */
  readonly at: string;
}

export interface V8Trace {
  readonly compilations: readonly Compilation[];
  readonly deoptimisations: readonly Deoptimisation[];
}

// The name may itself hold angle brackets ("<instance_members_initializer>"); the sfi part ends it.
const functionPart = String.raw`<JSFunction ?(.*?) \(sfi = (0x[0-9a-f]+)\)>`;
const compiled = new RegExp(
  String.raw`^\[completed compiling 0x[0-9a-f]+ ${functionPart} \(target [A-Z]+\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]`,
);
const bailout = new RegExp(
  String.raw`^\[bailout \(kind: ([^,]+), reason: (.*)\): begin\. deoptimizing 0x[0-9a-f]+ ${functionPart}`,
);
const position = /;;; deoptimize at <([^>]*)>(?: inlined at <([^>]*)>)?/;

const nameOf = (name: string | undefined): string => (name && name.length > 0 ? name : "(anonymous)");

/** The compilations and deoptimisations of a trace, in the order V8 printed them; other lines are skipped. */
export const parseV8Trace = (
  text: string,
  shortenPath: (path: string) => string = (path) => path,
): V8Trace => {
  const compilations: Compilation[] = [];
  const deoptimisations: Deoptimisation[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const compile = compiled.exec(line);
    if (compile) {
      compilations.push({
        function: nameOf(compile[1]),
        sfi: compile[2] as string,
        ms: Number(compile[4]) + Number(compile[5]) + Number(compile[6]),
        osr: compile[3] !== undefined,
      });
      continue;
    }
    const deopt = bailout.exec(line);
    if (!deopt) continue;
    // The verbose trace names the position on the next line or the few after it.
    let at = "";
    for (let next = index + 1; next < Math.min(lines.length, index + 4); next += 1) {
      const found = position.exec(lines[next] as string);
      if (!found) continue;
      at = shortenPath(found[1] as string) + (found[2] ? ` inlined at ${shortenPath(found[2])}` : "");
      break;
    }
    deoptimisations.push({
      kind: deopt[1] as string,
      reason: deopt[2] as string,
      function: nameOf(deopt[3]),
      sfi: deopt[4] as string,
      at,
    });
  }
  return { compilations, deoptimisations };
};

/** What a trace's compiling cost, and which deoptimisations cost the most recompiling. */
export interface CompileCost {
  readonly compilations: number;
  readonly compileMs: number;
  readonly deoptimisations: number;
  /** Deoptimisations by reason, most first. */
  readonly reasons: readonly { readonly reason: string; readonly count: number }[];
  /**
   * Each deoptimisation costs, at the least, compiling its function again: charged here at that function's mean
   * compilation time in this trace. Summed over every deoptimisation.
   */
  readonly recompileMs: number;
  /** Places (function, reason, position), costliest first. */
  readonly places: readonly {
    readonly function: string;
    readonly reason: string;
    readonly at: string;
    readonly count: number;
    readonly recompileMs: number;
  }[];
  /** Functions by compile time, most first. */
  readonly functions: readonly { readonly function: string; readonly count: number; readonly ms: number }[];
}

export const compileCost = (trace: V8Trace): CompileCost => {
  const perFunction = new Map<string, { function: string; count: number; ms: number }>();
  for (const compilation of trace.compilations) {
    const entry = perFunction.get(compilation.sfi) ?? { function: compilation.function, count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += compilation.ms;
    perFunction.set(compilation.sfi, entry);
  }
  const meanMs = (sfi: string): number => {
    const entry = perFunction.get(sfi);
    return entry ? entry.ms / entry.count : 0;
  };
  const reasons = new Map<string, number>();
  const places = new Map<
    string,
    { function: string; reason: string; at: string; count: number; recompileMs: number }
  >();
  let recompileMs = 0;
  for (const deopt of trace.deoptimisations) {
    reasons.set(deopt.reason, (reasons.get(deopt.reason) ?? 0) + 1);
    const key = `${deopt.sfi}\u0000${deopt.reason}\u0000${deopt.at}`;
    const place = places.get(key) ?? {
      function: deopt.function,
      reason: deopt.reason,
      at: deopt.at,
      count: 0,
      recompileMs: 0,
    };
    place.count += 1;
    place.recompileMs += meanMs(deopt.sfi);
    places.set(key, place);
    recompileMs += meanMs(deopt.sfi);
  }
  return {
    compilations: trace.compilations.length,
    compileMs: trace.compilations.reduce((sum, compilation) => sum + compilation.ms, 0),
    deoptimisations: trace.deoptimisations.length,
    reasons: [...reasons]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    recompileMs,
    places: [...places.values()].sort((a, b) => b.recompileMs - a.recompileMs),
    functions: [...perFunction.values()].sort((a, b) => b.ms - a.ms),
  };
};
