import { evaluateExpression } from "../calculator/calculate.js";
import type { Operand } from "./operands.js";

export type DerivationKind =
  | "value"
  | "sum"
  | "difference"
  | "average"
  | "ratio"
  | "percentage"
  | "percent-change"
  | "percent-of"
  | "whole-of-share"
  | "per-unit-product"
  | "expenses"
  | "share";

// Made once: a regular expression literal is a new object each time it is evaluated.
const trailingZeros = /\.?0+$/;

const plain = (value: number): string => {
  const text = String(Number(value.toPrecision(12)));
  return text.includes("e") ? value.toFixed(12).replace(trailingZeros, "") : text;
};

/** An operand as written in a formula, in the scale the claim is written in. */
export const operandText = (operand: Operand, claimScale: number): string => {
  const sameScale = Math.abs(operand.scale / claimScale - 1) < 1e-12;
  const literals = operand.parts.map((part) =>
    sameScale && part.number.literal
      ? part.number.literal
      : plain((part.number.value * operand.scale) / claimScale),
  );
  const wrapped = literals.map((literal) => (literal.startsWith("-") ? `(${literal})` : literal));
  if (operand.combine === "value") return literals[0] ?? "0";
  if (operand.combine === "difference") return `(${wrapped.join(" - ")})`;
  const sum = `(${wrapped.join(" + ")})`;
  return operand.combine === "sum" ? sum : `${sum} / ${literals.length}`;
};

const group = (text: string) => (/^[\w.]+$/.test(text) ? text : `(${text})`);

/** The expression of a derivation: `(0.50 - 0.45) / 0.45 * 100`. */
export const formulaExpression = (kind: DerivationKind, a: string, b: string): string => {
  switch (kind) {
    case "value":
      return a;
    case "sum":
      return `${group(a)} + ${group(b)}`;
    case "difference":
      return `${group(a)} - ${group(b)}`;
    case "average":
      return `(${group(a)} + ${group(b)}) / 2`;
    case "ratio":
      return `${group(a)} / ${group(b)}`;
    case "percentage":
      return `${group(a)} / ${group(b)} * 100`;
    case "percent-change":
      return `(${group(a)} - ${group(b)}) / ${group(b)} * 100`;
    case "percent-of":
      return `${group(a)} / 100 * ${group(b)}`;
    case "expenses":
      return `${group(a)} - ${group(b)}`;
    case "per-unit-product":
      return `${group(a)} * ${group(b)}`;
    case "whole-of-share":
      return `${group(a)} / ${group(b)} * 100`;
    case "share":
      return `${group(a)} / (${group(a)} + ${group(b)}) * 100`;
  }
};

/** The exact result of an expression, rounded to `decimals` places, or undefined if it cannot be computed. */
export const exactResult = (expression: string, decimals: number): string | undefined => {
  const outcome = evaluateExpression(`round(${expression}, ${Math.min(Math.max(decimals, 0), 20)})`);
  return outcome._tag === "Right" ? outcome.right.result : undefined;
};

const scaleNames: readonly (readonly [number, string])[] = [
  [1e12, "trillion"],
  [1e9, "billion"],
  [1e6, "million"],
  [1e3, "thousand"],
];

/** A value with the scale word of `scale` ("-12.6 million") or a percent sign. */
export const withUnit = (value: string, scale: number, percent: boolean): string => {
  if (percent) return `${value}%`;
  const name = scaleNames.find(([multiplier]) => Math.abs(scale / multiplier - 1) < 1e-9)?.[1];
  return name ? `${value} ${name}` : value;
};
