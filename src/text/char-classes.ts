/**
 * Classes of one character by its UTF-16 code, for scanners that look at a few characters around a place: a
 * comparison of codes where a regular expression's test cut a one-character string out first.
 */

/** ".", "!", "?" or "…". */
export const isEndPunctuation = (code: number): boolean =>
  code === 46 || code === 33 || code === 63 || code === 0x2026;
export const isSpaceOrTab = (code: number): boolean => code === 32 || code === 9;
/** " ", tab, carriage return or line feed. */
export const isSpaceOrBreak = (code: number): boolean =>
  code === 32 || code === 9 || code === 13 || code === 10;
const whiteSpace = /\s/;
/** What `\s` matches: in ASCII tab to carriage return and the space, outside it the expression decides. */
export const isWhiteSpace = (code: number): boolean =>
  code < 128 ? code === 32 || (code >= 9 && code <= 13) : whiteSpace.test(String.fromCharCode(code));
