/**
 * Footnote marks: "(1)" or "(2)" glued to a word or to another mark ("obligations(1)", "vessels (1)(2)"),
 * closing a table row label ("Equipment rentals (1) | $8,215"), or opening a line of notes ("(1) Total lease
 * liabilities exclude ..."). They point to a note; they are not the figure -1.
 */
const mark = /^\(\d{1,2}\)$/;

/** Glued to a word or to another mark: "leases(1)", "(1)(2)". */
const glued = /[\p{L})]$/u;

/** After a word and a space, closing the cell or the line, or followed by another mark: "Leases (1) |". */
const spacedAfterWord = /\p{L}[ \u00a0]$/u;
const closesLabel = /^[ \u00a0]*(?:\||\n|$|\(\d{1,2}\))/;

/** Opening a line, followed by the words of the note: "(1) Total lease liabilities ...". */
const opensNote = /^[ \u00a0]+\p{Lu}/u;

/** Whether the parenthesized integer at `[start, end)` of `text`, parentheses included, is a footnote mark. */
export const isFootnoteMark = (text: string, start: number, end: number): boolean => {
  if (!mark.test(text.slice(start, end))) return false;
  const before = text.slice(Math.max(0, start - 2), start);
  const after = text.slice(end, end + 4);
  if (glued.test(before)) return true;
  if (spacedAfterWord.test(before) && closesLabel.test(after)) return true;
  return (start === 0 || text[start - 1] === "\n") && opensNote.test(after);
};
