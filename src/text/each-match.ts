/**
 * Calls `visit` with each match of a global regular expression in `text`, in order, until `visit` returns
 * false: the matches `text.matchAll(pattern)` gives, without the copy of the expression and the iterator that
 * `matchAll` makes on every call. The number readers run their patterns over every line of every source, and
 * those copies were a measurable part of reading a line.
 *
 * The expression's own `lastIndex` is used for each search and set back to 0 at the end. Each search sets it
 * from this loop's own position, so a `visit` that runs the same expression itself does not move this loop.
 */
export const eachMatch = (
  pattern: RegExp,
  text: string,
  visit: (match: RegExpExecArray) => unknown,
): void => {
  if (!pattern.global) throw new TypeError(`eachMatch needs a global expression: ${pattern}`);
  let from = 0;
  try {
    while (from <= text.length) {
      pattern.lastIndex = from;
      const match = pattern.exec(text);
      if (match === null) return;
      const end = match.index + match[0].length;
      // An empty match moves on by one character (a whole code point for a Unicode expression), as
      // `matchAll` does, so the loop always ends.
      from = end > match.index ? end : end + (readsCodePoints(pattern) ? codePointLength(text, end) : 1);
      if (visit(match) === false) return;
    }
  } finally {
    pattern.lastIndex = 0;
  }
};

/** Whether the expression reads code points ("u" or "v" flag), not UTF-16 units. */
const readsCodePoints = (pattern: RegExp): boolean => pattern.unicode || pattern.flags.includes("v");

/** Length in UTF-16 units of the code point at `at`: 2 for a surrogate pair, else 1. */
const codePointLength = (text: string, at: number): number => {
  const code = text.charCodeAt(at);
  if (code < 0xd800 || code > 0xdbff || at + 1 >= text.length) return 1;
  const next = text.charCodeAt(at + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
};
