const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * `text` without the characters at its end that `drop` accepts, in one backward pass. Regexes anchored only at
 * the end (`/[:.]+$/`, `/\/+$/`) retry from every position of a long run and take quadratic time on it.
 */
export const trimEndWhere = (text: string, drop: (character: string) => boolean): string => {
  let end = text.length;
  while (end > 0) {
    // A character outside the Basic Multilingual Plane is two UTF-16 units: test it whole.
    const pair =
      end > 1 && isLowSurrogate(text.charCodeAt(end - 1)) && isHighSurrogate(text.charCodeAt(end - 2));
    const width = pair ? 2 : 1;
    if (!drop(text.slice(end - width, end))) break;
    end -= width;
  }
  return text.slice(0, end);
};

/** `text` without leading and trailing spaces and tabs (not other whitespace), in linear time. */
export const trimSpacesAndTabs = (text: string): string => {
  const blank = (character: string | undefined) => character === " " || character === "\t";
  let start = 0;
  let end = text.length;
  while (start < end && blank(text[start])) start += 1;
  while (end > start && blank(text[end - 1])) end -= 1;
  return text.slice(start, end);
};

/** The lines of `text` (split on LF, CRLF or CR), for tests that would otherwise need a multiline regex. */
export const linesOf = (text: string): string[] => text.split(/\r\n|\r|\n/);
