import type { ExtractedNumber } from "../extract/types.js";

/** A quantity found in the evidence, with where it sits: its line, its table row and column, its period. */
export interface SourceNumber {
  readonly id: number;
  readonly number: ExtractedNumber;
  /** `EvidenceSource.index` it came from, or -1 for a recorded calculator output. */
  readonly source: number;
  /** The values it may stand for: as written with its scale, or, bare, in each scale its document declares. */
  readonly values: readonly number[];
  /** Lower-cased text of its line (for a table cell: the row), used to rank operands by proximity. */
  readonly lineText: string;
  /** Paragraph of prose it sits in (lines between blank lines), counted from 0 per evidence text. */
  readonly paragraph: number;
  /** Table cell position, when the number is in a table. */
  readonly table?: {
    readonly block: number;
    readonly row: number;
    readonly column: number;
    readonly label: string;
    /** The words heading its column, lower-cased ("facility costs"), when there are any. */
    readonly header?: string;
  };
  /** The year of its table column ("2019" header), when there is one. */
  readonly year?: number;
  /**
   * The period within its year, as a month * 100 + day key (see `periodInYear`), when its column header or
   * row label names a quarter or a date ("Third Quarter", "April 27, 2019").
   */
  readonly periodInYear?: number;
  /** Written in a table row's label ("net of tax of $1"): matched as written, never an operand. */
  readonly inLabel: boolean;
  /** Labelled as a total: a "Total ..." row, or "total" written just before it. */
  readonly isTotal: boolean;
  /** Whether its document declares no scale for bare figures. */
  readonly scaleUnknown: boolean;
  /** Written in a percent context: a "%" in its line or its table, or "percent" in its line. */
  readonly percentContext: boolean;
  /** For a table figure, the label of the row of words without figures above it ("earnings per share:"). */
  readonly rowHeading?: string;
  /** For a figure of prose, the noun it counts ("granted 320,000 PSUs": "psus"), when one follows it. */
  readonly countedNoun?: string;
}
