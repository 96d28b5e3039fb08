import type { Operand } from "./operands.js";

/**
 * Whether `later` is of a period no earlier than `earlier` (or nothing says): by year when both have one and
 * they differ, else by the period within the year (a quarter, a dated column) when both have one (within one
 * year, or where no year is known).
 */
export const inPeriodOrder = (later: Operand, earlier: Operand): boolean => {
  const order = periodComparison(later, earlier);
  return order === undefined || order >= 0;
};

/** Positive when `a` is of a later period than `b`, negative when earlier, 0 when the same, undefined when unknown. */
export const periodComparison = (a: Operand, b: Operand): number | undefined => {
  if (a.year !== undefined && b.year !== undefined && a.year !== b.year) return a.year - b.year;
  if (a.year !== b.year) return undefined;
  const periodOfA = a.parts.length === 1 ? a.parts[0]?.periodInYear : undefined;
  const periodOfB = b.parts.length === 1 ? b.parts[0]?.periodInYear : undefined;
  if (periodOfA !== undefined && periodOfB !== undefined) return periodOfA - periodOfB;
  return a.year === undefined ? undefined : 0;
};
