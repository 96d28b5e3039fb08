// Characters that render as nothing but split a word for a pattern: zero-width space, zero-width non-joiner and
// joiner, word joiner, BOM, soft hyphen. Removed before rules read a text.
const invisible = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
// Any run of Unicode white space other than a line break (tab, no-break space, en/em/thin spaces, ideographic
// space...): folded to one space. Line breaks are kept, since they separate list items and paragraphs.
const horizontalSpace = /[^\S\n\r\u2028\u2029]+/g;
const lineBreak = /\r\n?|[\u2028\u2029]/g;

/**
 * A text as rules should read it: Unicode NFC (a composed "é" and "e" + combining accent are the same word),
 * invisible characters removed, every run of white space but line breaks folded to one space, line breaks as
 * "\n". So "I  guess", "I\u00A0guess" and "I\tguess" all read "I guess": hedges, negations and trust markers
 * cannot be dodged by spacing. Linear in the text's length.
 */
export const normalizeText = (text: string): string =>
  text.normalize("NFC").replace(invisible, "").replace(lineBreak, "\n").replace(horizontalSpace, " ");
