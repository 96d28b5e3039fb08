import type { EvidenceSource } from "../../verification/layer.js";
import type { ExtractOptions } from "../extract/types.js";
import { type Operand, plainOperands, rowRunOperands } from "./operands.js";
import { indexOperands, type OperandIndex } from "./search.js";
import { buildSourcePool, type SourcePool } from "./source-numbers.js";

/** The evidence read once: its figures, every figure as an operand indexed by value, and the runs. */
export interface PreparedSources {
  readonly pool: SourcePool;
  readonly operands: readonly Operand[];
  readonly index: OperandIndex;
  readonly runs: OperandIndex;
}

export interface PrepareOptions extends ExtractOptions {
  readonly maxNumbers?: number;
  readonly maxRun: number;
}

export type SourcesReader = (evidence: readonly EvidenceSource[], options: PrepareOptions) => PreparedSources;

export const prepareSources: SourcesReader = (evidence, options) => {
  const pool = buildSourcePool(evidence, options);
  const operands = plainOperands(pool.numbers);
  return {
    pool,
    operands,
    index: indexOperands(operands),
    runs: indexOperands(rowRunOperands(pool.numbers, options.maxRun)),
  };
};
