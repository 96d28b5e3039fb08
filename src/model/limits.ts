/**
 * The input limits, one table for every door: the HTTP API (`/v1/verify`, `/v1/check`, `/v1/numbers/validate`,
 * `/v1/citations/verify`), MCP tools, `veracity check` and the library's request checks. Each bounds what one
 * caller can make the process hold or compute; a request past one is refused with the field it concerns
 * (HTTP: a 400 or 413 problem+json with `field`; CLI: a usage error, exit 2). docs/SECURITY.md lists them.
 */
export const inputLimits = {
  /** Characters of the text to verify (the answer). */
  textChars: 100_000,
  /** Characters of one source. */
  sourceChars: 1_000_000,
  /** Sources in one request. */
  sources: 100,
  /** Characters of the sources and the context together. */
  evidenceChars: 2_000_000,
  /** Characters of the conversation context. */
  contextChars: 1_000_000,
  /** Characters of the question. */
  questionChars: 10_000,
  /** Nesting of a JSON body (objects and arrays): parsers and decoders recurse on it. */
  jsonDepth: 64,
  /** Bytes of an HTTP request body. */
  bodyBytes: 2 * 1024 * 1024,
} as const;

export type InputLimits = typeof inputLimits;

/**
 * What is wrong with text that no rule should read: a NUL (which SQL text refuses) or a lone surrogate (a high
 * surrogate not followed by a low one, or a low one not preceded by a high one). `isWellFormed` answers the
 * second natively, six to nine times faster than a pattern over a 10 MB source, which the server's event loop
 * reads for every request.
 */
export const unreadableText = (text: string): string | undefined => {
  if (text.includes("\u0000")) return "contains a NUL character";
  if (!text.isWellFormed()) return "contains a lone surrogate (not valid Unicode)";
  return undefined;
};
