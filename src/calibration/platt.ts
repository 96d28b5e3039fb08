import { Schema } from "effect";

/** Platt scaling parameters: P(correct | score f) = 1 / (1 + exp(a * f + b)). */
export const PlattModel = Schema.Struct({ a: Schema.Number, b: Schema.Number });
export type PlattModel = typeof PlattModel.Type;

export const applyPlatt = (model: PlattModel, score: number): number => {
  const value = 1 / (1 + Math.exp(model.a * score + model.b));
  return Math.max(0, Math.min(1, value));
};
