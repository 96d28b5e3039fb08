import { evaluateExpression } from "../calculator/calculate.js";
import type { ExtractedNumber } from "../extract/types.js";
import type { InlineCalculation } from "./validation-result.js";

const expressionChars = /[\d\s.,+\-−–*/×÷^()%$€£]/;
const operatorBetween = /[\d)%]\s*[+\-−–*/×÷^]\s*[-−–]?[($€£]*\s*[\d(.]/;

/** The arithmetic written just before `end`: "(0.50-0.45)/0.45*100 " before "= 11.11%". */
const expressionBefore = (text: string, end: number): { start: number; expression: string } | undefined => {
  let start = end;
  while (start > 0 && end - start < 400 && expressionChars.test(text[start - 1] ?? "")) start -= 1;
  let raw = text.slice(start, end);
  const lead = raw.search(/[\d(.\-−–$€£]/);
  if (lead === -1) return undefined;
  start += lead;
  raw = raw.slice(lead).trimEnd();
  // A sentence comma ("..., 20 + 5") is not part of the expression: keep what follows the last ", ".
  const lastBreak = raw.lastIndexOf(", ");
  if (lastBreak !== -1) {
    start += lastBreak + 2;
    raw = raw.slice(lastBreak + 2);
  }
  if (!operatorBetween.test(raw)) return undefined;
  const expression = raw
    .replace(/[$€£]/g, "")
    .replace(/(\d),(?=\d{3}(?!\d))/g, "$1")
    .trim();
  return { start, expression };
};

const withinRounding = (written: number, decimals: number, computed: number): boolean =>
  Math.abs(written - computed) <= 0.5 * 10 ** -decimals * (1 + 1e-9) + Math.abs(computed) * 1e-12;

/**
 * The first number (in the list's order) that starts within `[from, to]`. Numbers in text order, as extraction
 * gives them, are searched by halves, so a text with thousands of "=" and of figures costs no more than their
 * sum; a list in any other order is searched one by one.
 */
const firstNumberFrom = (numbers: readonly ExtractedNumber[]) => {
  const ordered = numbers.every(
    (number, at) => at === 0 || (numbers[at - 1] as ExtractedNumber).span.start <= number.span.start,
  );
  return (from: number, to: number): ExtractedNumber | undefined => {
    if (!ordered) return numbers.find((number) => number.span.start >= from && number.span.start <= to);
    let low = 0;
    let high = numbers.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((numbers[middle] as ExtractedNumber).span.start < from) low = middle + 1;
      else high = middle;
    }
    const number = numbers[low];
    return number !== undefined && number.span.start <= to ? number : undefined;
  };
};

/**
 * Calculations written in the text ("20,893 + 76,378 = 97,271", "(0.50-0.45)/0.45*100 = 11.11%"), each
 * recomputed with the calculator. A written result that the expression does not give (within the rounding
 * of its written precision) is marked incorrect, with the computed value.
 */
export const findInlineCalculations = (
  text: string,
  numbers: readonly ExtractedNumber[],
): InlineCalculation[] => {
  const found: InlineCalculation[] = [];
  const resultAt = firstNumberFrom(numbers);
  for (const match of text.matchAll(/\s?(?:=|≈)\s?/g)) {
    const equals = match.index;
    const after = equals + match[0].length;
    const result = resultAt(after, after + 2);
    if (!result || Number.isNaN(result.value)) continue;
    const before = expressionBefore(text, equals);
    if (!before) continue;
    const outcome = evaluateExpression(before.expression);
    if (outcome._tag === "Left") continue;
    // "(0.50 - 0.45) / 0.45 = 11.11%": a fraction written as a percent when the expression has no "* 100".
    const asPercent = result.kind === "percent" && !/100/.test(before.expression);
    const shown = asPercent ? outcome.right.value * 100 : outcome.right.value;
    const correct = withinRounding(result.value, result.decimals, shown);
    found.push({
      expression: before.expression,
      span: { start: before.start, end: result.span.end },
      resultSpan: result.span,
      written: result.text,
      computed: roundTo(shown, Math.max(result.decimals, 2)),
      correct,
    });
  }
  return found;
};

const roundTo = (value: number, decimals: number): string => {
  const outcome = evaluateExpression(`round(${value.toPrecision(15)}, ${Math.min(decimals, 12)})`);
  return outcome._tag === "Right" ? outcome.right.result : String(value);
};
