/**
 * ASCII character classes by UTF-16 code, for scanners that read a text a character at a time: a comparison
 * of codes costs nothing beside a regular expression's call on a one-character string. Codes outside ASCII are
 * none of these; a scanner that must know letters and digits of other scripts asks a Unicode expression.
 */
export const isAsciiDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * Whether a word holds an ASCII digit (what `/\d/` finds): a loop over its few characters, where `/\d/.test`
 * cost a call per word, and a literal in a function a new expression object each call.
 */
export const hasDigit = (word: string): boolean => {
  for (let at = 0; at < word.length; at++) if (isAsciiDigit(word.charCodeAt(at))) return true;
  return false;
};

export const isAsciiLetter = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

/** Written out rather than as the two tests above, so that a caller's compiled loop needs no further call. */
export const isAsciiLetterOrDigit = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
