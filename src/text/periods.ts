/**
 * Calendar periods written in their many forms, read into one canonical key so that two texts naming the
 * same period compare equal: "Q3 2025", "3Q25", "third quarter of 2025" and "Q3 of 2025" are all
 * `quarter 3 of 2025`; "H1 FY24" and "first half of fiscal 2024" are `half 1 of FY2024`; "Sept. 2025" and
 * "September 2025" are `month 9 of 2025`; "FY2025", "FY 25" and "fiscal year 2025" are `FY2025`.
 */
export interface PeriodMention {
  /** Where the mention stands in the text (offsets shifted by the `offset` given to `findPeriods`). */
  readonly span: { readonly start: number; readonly end: number };
  /** "quarter", "half", "month" or "fiscal-year". */
  readonly unit: "quarter" | "half" | "month" | "fiscal-year";
  /** 1-4 for a quarter, 1-2 for a half, 1-12 for a month; 0 for a fiscal year. */
  readonly part: number;
  /** "2025" for a calendar year, "FY2025" for a fiscal year, undefined when the text gives no year. */
  readonly year?: string;
}

const ordinals: Readonly<Record<string, number>> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
};

const months: Readonly<Record<string, number>> = {
  january: 1,
  jan: 1,
  february: 2,
  feb: 2,
  march: 3,
  mar: 3,
  april: 4,
  apr: 4,
  may: 5,
  june: 6,
  jun: 6,
  july: 7,
  jul: 7,
  august: 8,
  aug: 8,
  september: 9,
  sept: 9,
  sep: 9,
  october: 10,
  oct: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
};

/** A two-digit year is read in the window 1970-2069, as financial reports use it. */
const fullYear = (digits: string): string => {
  if (digits.length === 4) return digits;
  const value = Number(digits);
  return String(value < 70 ? 2000 + value : 1900 + value);
};

// A year after a period: "2025", "'25", "FY2025", "FY 25", "fiscal 2025", "fiscal year 2025", "of 2025".
const yearAfter = String.raw`(?:,?\s+(?:of\s+)?(?:the\s+)?|\s*['’-]\s*|\s+)?(?:(FY\s?|fiscal\s+(?:year\s+)?)(\d{4}|\d{2})|(\d{4})|(?<=['’]\s*|[QqHh])(\d{2}))`;
const ordinal = "(first|second|third|fourth|1st|2nd|3rd|4th)";
const monthName = String.raw`(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?`;

export interface PeriodPattern {
  readonly unit: PeriodMention["unit"];
  readonly regex: RegExp;
  /** The period's number and whether a fiscal marker stood before it ("fiscal third quarter"). */
  readonly part: (match: RegExpExecArray) => number;
  readonly fiscalBefore?: (match: RegExpExecArray) => boolean;
  /** Index of the first of the year's four groups (fiscal marker, fiscal digits, year, two-digit year). */
  readonly yearGroup: number;
  /** Whether the match stands only with a year ("May" alone is a verb as often as a month). */
  readonly needsYear?: boolean;
  readonly caseSensitive?: boolean;
  /**
   * What every match holds, tested before the pattern runs. A pattern that opens with an optional word
   * ("fiscal" before "third quarter") is tried at every word of a text, where this test skips through the
   * text at once: on real sources the two such patterns cost more than the four others together, and one
   * source in eleven holds "quarter".
   */
  readonly needs?: RegExp;
}

/** The patterns `findPeriods` runs, in order (exported for the test of their `needs`). */
export const periodPatterns: readonly PeriodPattern[] = [
  {
    unit: "quarter",
    regex: new RegExp(String.raw`\b(?:Q([1-4])|([1-4])Q)(?:${yearAfter})?\b`, "gi"),
    part: (m) => Number(m[1] ?? m[2]),
    yearGroup: 3,
  },
  {
    unit: "quarter",
    regex: new RegExp(String.raw`\b(fiscal\s+)?${ordinal}[\s-]quarter(?:${yearAfter})?\b`, "gi"),
    part: (m) => ordinals[(m[2] ?? "").toLowerCase()] ?? 0,
    fiscalBefore: (m) => m[1] !== undefined,
    yearGroup: 3,
    needs: /quarter/i,
  },
  {
    unit: "half",
    regex: new RegExp(String.raw`\b(?:H([12])|([12])H)(?:${yearAfter})?\b`, "gi"),
    part: (m) => Number(m[1] ?? m[2]),
    yearGroup: 3,
  },
  {
    unit: "half",
    regex: new RegExp(String.raw`\b(fiscal\s+)?(first|second|1st|2nd)[\s-]half(?:${yearAfter})?\b`, "gi"),
    part: (m) => ordinals[(m[2] ?? "").toLowerCase()] ?? 0,
    fiscalBefore: (m) => m[1] !== undefined,
    yearGroup: 3,
    needs: /half/i,
  },
  {
    unit: "month",
    regex: new RegExp(String.raw`\b${monthName}(?:${yearAfter})?(?![\w])`, "g"),
    part: (m) => months[(m[1] ?? "").toLowerCase()] ?? 0,
    yearGroup: 2,
    caseSensitive: true,
  },
  {
    unit: "fiscal-year",
    regex: /\b(?:FY\s?(\d{4}|\d{2})|fiscal\s+(?:year\s+)?(\d{4}))\b/gi,
    part: () => 0,
    yearGroup: -1,
  },
];

/** A month written with a capital (made once: a regular expression literal is a new object each time it is read). */
const startsUpperAscii = /^[A-Z]/;

const yearOf = (match: RegExpExecArray, first: number, fiscalBefore: boolean): string | undefined => {
  const [fiscalMarker, fiscalDigits, year, shortYear] = [
    match[first],
    match[first + 1],
    match[first + 2],
    match[first + 3],
  ];
  if (fiscalMarker !== undefined && fiscalDigits !== undefined) return `FY${fullYear(fiscalDigits)}`;
  const digits = year ?? shortYear;
  if (digits === undefined) return undefined;
  return fiscalBefore ? `FY${fullYear(digits)}` : fullYear(digits);
};

/** Every period the text names, longest first where two overlap ("Q3 FY2025" wins over "FY2025"). */
export const findPeriods = (text: string, offset = 0): PeriodMention[] => {
  const found: PeriodMention[] = [];
  for (const pattern of periodPatterns) {
    if (pattern.needs !== undefined && !pattern.needs.test(text)) continue;
    pattern.regex.lastIndex = 0;
    for (let match = pattern.regex.exec(text); match !== null; match = pattern.regex.exec(text)) {
      const part = pattern.part(match);
      if (part === undefined || Number.isNaN(part)) continue;
      const year =
        pattern.yearGroup === -1
          ? `FY${fullYear(match[1] ?? match[2] ?? "")}`
          : yearOf(match, pattern.yearGroup, pattern.fiscalBefore?.(match) ?? false);
      if (pattern.unit === "month" && year === undefined && !startsUpperAscii.test(match[0])) continue;
      if (pattern.unit === "month" && year === undefined && match[1] === "May") continue;
      const span = { start: offset + match.index, end: offset + match.index + match[0].length };
      found.push({ span, unit: pattern.unit, part, ...(year === undefined ? {} : { year }) });
    }
  }
  const sorted = found.sort(
    (a, b) => a.span.start - b.span.start || b.span.end - b.span.start - (a.span.end - a.span.start),
  );
  const kept: PeriodMention[] = [];
  for (const mention of sorted) {
    const last = kept[kept.length - 1];
    if (last !== undefined && mention.span.start < last.span.end) continue;
    kept.push(mention);
  }
  return kept;
};

/** The canonical key of a period: "quarter 3 of 2025", "month 9", "FY2025". */
export const periodKey = (period: Omit<PeriodMention, "span">): string =>
  period.unit === "fiscal-year"
    ? (period.year ?? "FY")
    : `${period.unit} ${period.part}${period.year === undefined ? "" : ` of ${period.year}`}`;

/**
 * Whether `claimed` names a period that `stated` names too. A claim without a year agrees with the same
 * period of any year; a claim with a year needs that year ("Q3 2024" does not agree with "Q3 2025", nor with a
 * bare "Q3" whose year the text does not give).
 */
export const samePeriod = (
  claimed: Omit<PeriodMention, "span">,
  stated: Omit<PeriodMention, "span">,
): boolean =>
  claimed.unit === stated.unit &&
  claimed.part === stated.part &&
  (claimed.year === undefined || claimed.year === stated.year);
