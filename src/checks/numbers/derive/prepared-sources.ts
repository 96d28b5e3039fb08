import type { EvidenceSource } from "../../../model/layer.js";
import type { ExtractOptions } from "../extract/types.js";
import { type Operand, plainOperands } from "./operands.js";
import { indexRunOperands } from "./run-operands.js";
import { indexOperands, type OperandIndex, type ValueIndex } from "./search.js";
import { buildSourcePool, readSource, type SourcePool, type SourceReader } from "./source-numbers.js";

/** The evidence read once: its figures, every figure as an operand indexed by value, and the runs. */
export interface PreparedSources {
  readonly pool: SourcePool;
  readonly operands: readonly Operand[];
  /** The operands of each source figure, by its id (a figure has one operand per scale it may be read in). */
  readonly operandsOf: ReadonlyMap<number, readonly Operand[]>;
  readonly index: OperandIndex;
  /** Sums and averages of runs of adjacent figures, indexed when first asked for. */
  readonly runs: () => ValueIndex;
}

export interface PrepareOptions extends ExtractOptions {
  readonly maxNumbers?: number;
  readonly maxRun: number;
}

export type SourcesReader = (evidence: readonly EvidenceSource[], options: PrepareOptions) => PreparedSources;

/** The evidence read and indexed; each text read by `readOne` (`readSource`, or a cache of its readings). */
export const prepareSources = (
  evidence: readonly EvidenceSource[],
  options: PrepareOptions,
  readOne: SourceReader = readSource,
): PreparedSources => {
  const pool = buildSourcePool(evidence, options, readOne);
  let runs: ValueIndex | undefined;
  const operands = plainOperands(pool.numbers);
  const operandsOf = new Map<number, Operand[]>();
  for (const operand of operands) {
    const id = operand.parts[0]?.id ?? -1;
    const list = operandsOf.get(id);
    if (list) list.push(operand);
    else operandsOf.set(id, [operand]);
  }
  return {
    pool,
    operands,
    operandsOf,
    index: indexOperands(operands),
    runs: () => {
      runs ??= indexRunOperands(pool.numbers, options.maxRun);
      return runs;
    },
  };
};
