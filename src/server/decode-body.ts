import { Either, ParseResult, Schema } from "effect";
import type { Context } from "hono";
import { inputLimits, unreadableText } from "../model/limits.js";
import { ApiProblem } from "./middleware/problem/index.js";

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

/**
 * Reads the JSON body and decodes it with `schema`. Malformed JSON, nesting past `inputLimits.jsonDepth`, a
 * string holding a NUL or a lone surrogate, and a body the schema refuses (a text too long, too many sources)
 * are 400 problems that name the field.
 */
export const decodeBody = async <A, I>(context: Context, schema: Schema.Schema<A, I>): Promise<A> => {
  const type = context.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiProblem(415, "unsupported-media-type", "send the body as application/json");
  const text = await context.req.text();
  if (jsonDepth(text, inputLimits.jsonDepth) > inputLimits.jsonDepth)
    throw new ApiProblem(
      400,
      "too-deep",
      `the body nests objects and arrays more than ${inputLimits.jsonDepth} deep`,
      {},
      "body",
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiProblem(400, "malformed-json", "the request body is not valid JSON", {}, "body");
  }
  // A NUL or a lone surrogate reaches a parsed string or key only through a `\u` escape: JSON refuses raw control
  // characters, and decoding replaces bytes that would encode a surrogate. A body without one is not walked
  // (5 ms of the event loop for a 10 MB body).
  const unreadable = text.includes("\\u") ? firstUnreadable(raw, "") : undefined;
  if (unreadable !== undefined)
    throw new ApiProblem(
      400,
      "invalid-text",
      `${unreadable.path || "the body"} ${unreadable.reason}`,
      {},
      unreadable.path || "body",
    );
  const decoded = Schema.decodeUnknownEither(schema, { onExcessProperty: "error" })(raw);
  if (Either.isLeft(decoded)) {
    const first = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0];
    const field = first === undefined || first.path.length === 0 ? "body" : first.path.join(".");
    throw new ApiProblem(
      400,
      "invalid-body",
      ParseResult.TreeFormatter.formatErrorSync(decoded.left),
      {},
      field,
    );
  }
  return decoded.right;
};
