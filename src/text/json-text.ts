import { unreadableText } from "../model/limits.js";

/** Where the string opened by the quote at `open` closes: the next quote after an even run of backslashes, or -1. */
const stringEnd = (text: string, open: number): number => {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
};

/**
 * The deepest nesting of objects and arrays in a JSON text, counted in one pass without parsing, so a body
 * nested 100,000 deep is refused before a recursive parser or decoder sees it. Strings are skipped with
 * `indexOf` from quote to quote (a quote after an odd run of backslashes is escaped): a body that is mostly
 * one 10 MB source is crossed in a few milliseconds, where reading it a character at a time took 27 ms of the
 * server's event loop.
 */
export const jsonDepth = (text: string, stopAbove: number): number => {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 34) {
      const end = stringEnd(text, at);
      // An unterminated string: nothing after it nests (the parser refuses the body anyway).
      if (end === -1) break;
      at = end;
    } else if (code === 123 || code === 91) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (code === 125 || code === 93) depth--;
  }
  return deepest;
};

/** The path of the first string in `value` that no rule should read (NUL, lone surrogate), with the reason. */
const firstUnreadable = (value: unknown, path: string): { path: string; reason: string } | undefined => {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [current, at] = stack.pop() as [unknown, string];
    if (typeof current === "string") {
      const reason = unreadableText(current);
      if (reason !== undefined) return { path: at, reason };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push([current[index], `${at}[${index}]`]);
    } else if (typeof current === "object" && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        const keyReason = unreadableText(key);
        if (keyReason !== undefined) return { path: at, reason: `has a key that ${keyReason}` };
        stack.push([child, at === "" ? key : `${at}.${key}`]);
      }
    }
  }
  return undefined;
};

/** What reading a JSON text gave: its value, or why it cannot be read. */
export type JsonReading =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "too-deep" }
  | { readonly kind: "malformed" }
  /** A string or key holding a NUL or a lone surrogate: where (a path such as `sources[2]`), and why. */
  | { readonly kind: "unreadable"; readonly path: string; readonly reason: string };

/**
 * Reads a JSON text: refused when it nests deeper than `maxDepth` (counted before parsing, so no recursive
 * reader ever sees a body nested 100,000 deep), when it is not JSON, or when a string or key holds a NUL or a
 * lone surrogate, which no rule should read.
 *
 * A NUL or a lone surrogate reaches a parsed string or key only through a `\u` escape: JSON refuses raw control
 * characters, and decoding UTF-8 replaces bytes that would encode a surrogate. A text without one is not walked
 * (5 ms for a 10 MB body).
 */
export const readJsonText = (text: string, maxDepth: number): JsonReading => {
  if (jsonDepth(text, maxDepth) > maxDepth) return { kind: "too-deep" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "malformed" };
  }
  const unreadable = text.includes("\\u") ? firstUnreadable(value, "") : undefined;
  return unreadable === undefined ? { kind: "value", value } : { kind: "unreadable", ...unreadable };
};

/**
 * Reads a JSON text given as UTF-8 bytes, decoded as `Request.text()` decodes a body (a BOM dropped, bytes that
 * are not UTF-8 read as U+FFFD): what `readJsonText` gives for that text.
 */
export const readJsonBytes = (bytes: Uint8Array, maxDepth: number): JsonReading =>
  readJsonText(new TextDecoder().decode(bytes), maxDepth);

/**
 * Reads a JSON text given as UTF-8 bytes somewhere other than the caller's thread (a worker): what
 * `readJsonText` gives for the decoded text.
 */
export type OffThreadJsonReader = (bytes: Uint8Array, maxDepth: number) => Promise<JsonReading>;
