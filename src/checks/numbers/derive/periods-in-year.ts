import { hasDigit } from "../../../text/ascii.js";
import { trimEndWhere } from "../../../text/trim.js";

/**
 * Periods within a year, for ordering figures of one year: quarters ("Third Quarter", "Q3", "3rd") and dates
 * ("April 27, 2019", "January 26, 2019 - February 22, 2019"). A period is keyed by the month and day it ends
 * or starts on (month * 100 + day): a quarter by the last day of its last month, a date by itself.
 */
const quarterPattern =
  /^(first|second|third|fourth|1st|2nd|3rd|4th|q[1-4])(?:\s+(?:fiscal\s+)?(?:quarter|qtr\.?))?$/;

const quarterNumber: Record<string, number> = {
  first: 1,
  "1st": 1,
  q1: 1,
  second: 2,
  "2nd": 2,
  q2: 2,
  third: 3,
  "3rd": 3,
  q3: 3,
  fourth: 4,
  "4th": 4,
  q4: 4,
};

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const datePattern =
  /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|t|tember|ober|ember)?\.?\s+(\d{1,2})\b/;

/** A footnote mark in a cell: "(1)", "( 12 )" (made once: a regular expression literal is a new object each time it is read). */
const footnoteMark = /\(\s*\d{1,2}\s*\)/g;

/**
 * The key of the period a table cell or row label names, or undefined: a quarter ("Third Quarter"), or the
 * first date it names ("Final as of December 31, 2019", "January 26, 2019 - February 22, 2019").
 */
export const periodInYear = (cell: string): number | undefined => {
  const lowered = cell.toLowerCase().replace(footnoteMark, "");
  const text = trimEndWhere(lowered, (character) => character === ":" || character === ".").trim();
  const quarter = quarterPattern.exec(text)?.[1];
  if (quarter) return 3 * (quarterNumber[quarter] ?? 0) * 100 + 31;
  const date = datePattern.exec(text);
  if (!date?.[1] || !date[2]) return undefined;
  const day = Number(date[2]);
  return day >= 1 && day <= 31 ? (months.indexOf(date[1]) + 1) * 100 + day : undefined;
};

/** A cheap test that a line may name periods within a year. */
export const periodLike =
  /\b(?:first|second|third|fourth|1st|2nd|3rd|4th|q[1-4]|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;

/**
 * Column index to period, when a header line names two or more different periods within a year in its cells
 * ("| First | Second | Third | Fourth", "| July 27, 2019 | April 27, 2019 |") and no other figures.
 */
export const periodColumns = (line: string): Map<number, number> | undefined => {
  const periods = new Map<number, number>();
  let others = 0;
  line.split("|").forEach((cell, column) => {
    const period = periodInYear(cell);
    if (period !== undefined) periods.set(column, period);
    else if (hasDigit(cell)) others += 1;
  });
  return new Set(periods.values()).size >= 2 && others === 0 ? periods : undefined;
};
