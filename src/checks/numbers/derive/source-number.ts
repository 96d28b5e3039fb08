import type { ExtractedNumber } from "../extract/types.js";

/**
 * A quantity found in the evidence, with where it sits: its line, its table row and column, its period. Every
 * field is always present (undefined when it does not apply), and every place that makes one lists them in
 * this order: objects of one shape share one hidden class in V8, so the searches that read thousands of them
 * per answer run monomorphic property loads. Objects built with optional fields spread in had 15 shapes, and
 * each search function met them all.
 */
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
  readonly table: TablePlace | undefined;
  /** The year of its table column ("2019" header), when there is one. */
  readonly year: number | undefined;
  /**
   * The period within its year, as a month * 100 + day key (see `periodInYear`), when its column header or
   * row label names a quarter or a date ("Third Quarter", "April 27, 2019").
   */
  readonly periodInYear: number | undefined;
  /** Labelled as a total: a "Total ..." row, or "total" written just before it. */
  readonly isTotal: boolean;
  /** Written in a table row's label ("net of tax of $1"): matched as written, never an operand. */
  readonly inLabel: boolean;
  /** Whether its document declares no scale for bare figures. */
  readonly scaleUnknown: boolean;
  /** Written in a percent context: a "%" in its line or its table, or "percent" in its line. */
  readonly percentContext: boolean;
  /** For a table figure, the label of the row of words without figures above it ("earnings per share:"). */
  readonly rowHeading: string | undefined;
  /** For a figure of prose, the noun it counts ("granted 320,000 PSUs": "psus"), when one follows it. */
  readonly countedNoun: string | undefined;
}

/** Where a figure of a table sits. */
export interface TablePlace {
  readonly block: number;
  readonly row: number;
  readonly column: number;
  readonly label: string;
  /** The words heading its column, lower-cased ("facility costs"), when there are any. */
  readonly header: string | undefined;
}
