import { hasDigit } from "../../../text/ascii.js";

/**
 * The words heading each column of a table ("Workforce reduction | Facility costs | Total"): the text of the
 * header lines above the first row of figures, cell by cell. Header lines are the lines of a table before
 * its first row with a figure outside its label cell, and the lines naming periods (years, quarters, dates).
 */
export interface ColumnHeaders {
  /** Reads the next line of the table; `namesPeriods` when it is a line of period headers. */
  readonly read: (line: string, namesPeriods: boolean) => void;
  /** The header words of a column, lower-cased, when they hold a word (not only periods or units). */
  readonly of: (column: number) => string | undefined;
}

const hasWord = /\p{L}{3,}/u;

export const makeColumnHeaders = (): ColumnHeaders => {
  const cells: string[] = [];
  let inHeader = true;
  return {
    read: (line, namesPeriods) => {
      if (!inHeader) return;
      const parts = line.split("|");
      if (!namesPeriods && parts.slice(1).some(hasDigit)) {
        inHeader = false;
        return;
      }
      parts.forEach((cell, column) => {
        const text = cell.trim().toLowerCase();
        if (column > 0 && text.length > 0) cells[column] = cells[column] ? `${cells[column]} ${text}` : text;
      });
    },
    of: (column) => {
      const text = cells[column];
      return text !== undefined && hasWord.test(text) ? text : undefined;
    },
  };
};
