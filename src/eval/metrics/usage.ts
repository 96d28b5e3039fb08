/** Model spend of one verification. */
export interface Usage {
  readonly llmCalls: number;
  readonly tokens: number;
  readonly cost: number;
}

export const noUsage: Usage = { llmCalls: 0, tokens: 0, cost: 0 };

export const addUsage = (a: Usage, b: Usage): Usage => ({
  llmCalls: a.llmCalls + b.llmCalls,
  tokens: a.tokens + b.tokens,
  cost: a.cost + b.cost,
});

const finiteNumber = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;

/**
 * Tokens as layers report them in `details.tokens`: a number, or an object with `total`/`totalTokens`,
 * or input and output counts. Anything else counts as 0.
 */
export const tokensOf = (value: unknown): number => {
  if (typeof value === "number") return finiteNumber(value);
  if (typeof value !== "object" || value === null) return 0;
  const record = value as Record<string, unknown>;
  if (record.total !== undefined) return finiteNumber(record.total);
  if (record.totalTokens !== undefined) return finiteNumber(record.totalTokens);
  return (
    finiteNumber(record.input ?? record.inputTokens ?? record.prompt) +
    finiteNumber(record.output ?? record.outputTokens ?? record.completion)
  );
};

/**
 * Model calls of one layer: `details.modelCalls`, as the model-backed layers record it
 * (`src/checks/model-backed/shared/run-model-layer.ts`), or `details.llmCalls`.
 */
const callsOf = (details: Readonly<Record<string, unknown>>): number =>
  finiteNumber(details.modelCalls ?? details.llmCalls);

/** Calls and tokens summed from layer details; cost is the result's own `costIncurred`. */
export const usageOf = (
  layers: readonly { readonly details: Readonly<Record<string, unknown>> }[],
  costIncurred: number,
): Usage => ({
  llmCalls: layers.reduce((sum, layer) => sum + callsOf(layer.details), 0),
  tokens: layers.reduce((sum, layer) => sum + tokensOf(layer.details.tokens), 0),
  cost: finiteNumber(costIncurred),
});
