import type { Operand } from "../derive/operands.js";
import type { Found } from "../derive/search.js";
import type { SourceNumber } from "../derive/source-numbers.js";

/** A year named in a claim ("2019", "FY18", "F19"), or a count of periods ("both years", "3 years"). */
const namesYears =
  /(?<![\d,.])(?:19|20)\d{2}(?![\d,.])|\bF[Y]?\s?'?\d{2}\b|\b(?:both|two|three|four|five|\d+)\s+(?:(?:fiscal|financial|calendar)\s+)?(?:years?|fys?|periods?)\b/i;

/** A period within a year named in a claim: a quarter, a month or date, or a count of them ("4 quarters"). */
const namesPeriodsInYear =
  /\b(?:first|second|third|fourth|1st|2nd|3rd|4th|q[1-4]|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\b(?:both|two|three|four|\d+)\s+(?:quarters?|months?|periods?)\b/i;

const lineOf = (part: SourceNumber, along: "row" | "column") =>
  part.table
    ? `${part.source}:${part.table.block}:${along}:${along === "row" ? part.table.row : part.table.column}`
    : undefined;

/** The period a figure is of: its year, and within the year its quarter or date. */
const periodOf = (part: SourceNumber) => `${part.year ?? ""}:${part.periodInYear ?? ""}`;

/**
 * "The average of X was ..." naming no year is the average over every year of X's row: an average of some of
 * them (2 of the 3 years in the table) is partial data, not what the claim says. Likewise "the average
 * quarterly price in 2018", naming no quarter, is over every quarter of 2018 in the table. Applies to averages
 * whose figures all sit in one table row or column, each of its own period, when the claim names none of the
 * periods they differ by and the line holds a figure of another such period.
 */
export const partialPeriodAverage = (
  found: Found,
  claimText: string,
  figures: readonly Operand[],
): boolean => {
  const parts = averaged(found);
  const first = parts?.[0];
  if (!parts || !first || parts.length < 2) return false;
  const periods = new Set(parts.map(periodOf));
  if (periods.size !== parts.length) return false;
  const years = new Set(parts.map((part) => part.year));
  const byYear = years.size > 1;
  if (
    byYear ? parts.some((part) => part.year === undefined) : parts.some((p) => p.periodInYear === undefined)
  )
    return false;
  if ((byYear ? namesYears : namesPeriodsInYear).test(claimText)) return false;
  for (const along of ["row", "column"] as const) {
    const line = lineOf(first, along);
    if (line === undefined || parts.some((part) => lineOf(part, along) !== line)) continue;
    for (const operand of figures) {
      const figure = operand.parts.length === 1 ? operand.parts[0] : undefined;
      if (!figure || figure.inLabel || figure.isTotal || lineOf(figure, along) !== line) continue;
      if (periods.has(periodOf(figure)) || figure.percentContext !== first.percentContext) continue;
      const samePeriodKind = byYear
        ? figure.year !== undefined
        : figure.periodInYear !== undefined && years.has(figure.year);
      if (samePeriodKind) return true;
    }
  }
  return false;
};

/** The figures an average is taken over: a pair average, or an average of a run. */
const averaged = (found: Found): readonly SourceNumber[] | undefined => {
  if (found.kind === "average" && found.b) return [...found.a.parts, ...found.b.parts];
  if (found.kind === "value" && found.a.combine === "average") return found.a.parts;
  return undefined;
};

/** "For the 3 years", "across both years", "over the two fiscal years": how many periods the claim counts. */
const countedPeriods =
  /\b(both|two|three|four|five|[2-9])\s+(?:(?:fiscal|financial|calendar)\s+)?(?:years|fys|periods|quarters)\b/i;

const countWords: Readonly<Record<string, number>> = { both: 2, two: 2, three: 3, four: 4, five: 5 };

/**
 * "The average interest rate for the 3 years" is an average of three figures: an average of another number
 * of figures is not what the claim counts, whichever figures it takes.
 */
export const miscountedAverage = (found: Found, claimText: string): boolean => {
  const parts = averaged(found);
  if (!parts) return false;
  const match = countedPeriods.exec(claimText);
  const word = match?.[1]?.toLowerCase();
  if (word === undefined) return false;
  const count = countWords[word] ?? Number(word);
  return parts.length !== count;
};
