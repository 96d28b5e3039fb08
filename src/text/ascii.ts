/**
 * ASCII character classes by UTF-16 code, for scanners that read a text a character at a time: a comparison
 * of codes costs nothing beside a regular expression's call on a one-character string. Codes outside ASCII are
 * none of these; a scanner that must know letters and digits of other scripts asks a Unicode expression.
 */
export const isAsciiDigit = (code: number): boolean => code >= 48 && code <= 57;

export const isAsciiLetter = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

/** Written out rather than as the two tests above, so that a caller's compiled loop needs no further call. */
export const isAsciiLetterOrDigit = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
