/** Dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/** Model id (with or without the "provider:" prefix) to price. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Default list prices (USD per million tokens) of a few common cheap models, as published by the
 * providers in 2025. Prices change: pass your own table to `makeLLMService` for real accounting.
 * A model missing from the table costs 0 and therefore never trips a cost budget.
 */
export const defaultPrices: PriceTable = {
  "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  "gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
  "claude-3-5-haiku-latest": { inputPerMillion: 0.8, outputPerMillion: 4 },
  "claude-3-5-haiku-20241022": { inputPerMillion: 0.8, outputPerMillion: 4 },
  "claude-haiku-4-5": { inputPerMillion: 1, outputPerMillion: 5 },
  "claude-sonnet-4-5": { inputPerMillion: 3, outputPerMillion: 15 },
  "text-embedding-3-small": { inputPerMillion: 0.02, outputPerMillion: 0 },
  "text-embedding-3-large": { inputPerMillion: 0.13, outputPerMillion: 0 },
};

/** The price of a model: exact id first ("openai:gpt-4o-mini"), then the id without its provider prefix. */
export const priceOf = (prices: PriceTable, model: string): ModelPrice | undefined => {
  const exact = prices[model];
  if (exact !== undefined) return exact;
  const bare = model.slice(model.indexOf(":") + 1).split("@")[0] ?? model;
  return prices[bare];
};

export const costOf = (price: ModelPrice | undefined, inputTokens: number, outputTokens: number): number =>
  price === undefined
    ? 0
    : (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;

/** A rough token count for budget estimates before a call: about four characters per token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
