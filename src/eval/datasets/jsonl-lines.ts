import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { InputError } from "../../model/errors.js";

/** One non-blank line of a JSONL file, parsed, or the reason it could not be parsed. */
export type JsonlLine =
  | { readonly lineNumber: number; readonly ok: true; readonly value: unknown }
  | { readonly lineNumber: number; readonly ok: false; readonly reason: string };

export interface JsonlLimits {
  /** Longest accepted line in characters; longer lines are reported as malformed. */
  readonly maxLineLength: number;
}

export const defaultJsonlLimits: JsonlLimits = { maxLineLength: 4_000_000 };

/**
 * Streams a JSONL file line by line (never the whole file in memory). Blank lines are ignored; a line
 * that is too long or not JSON is yielded as `{ ok: false }` with its 1-based line number, so the caller
 * decides whether to skip it or stop: nothing is dropped silently. An unreadable file is an InputError.
 */
export async function* readJsonlLines(
  path: string,
  limits: JsonlLimits = defaultJsonlLimits,
): AsyncGenerator<JsonlLine> {
  const stream = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim().length === 0) continue;
      if (line.length > limits.maxLineLength) {
        yield { lineNumber, ok: false, reason: `line longer than ${limits.maxLineLength} characters` };
        continue;
      }
      try {
        yield { lineNumber, ok: true, value: JSON.parse(line) as unknown };
      } catch (error) {
        yield { lineNumber, ok: false, reason: `not JSON: ${(error as Error).message}` };
      }
    }
  } catch (error) {
    throw new InputError({
      message: `cannot read ${path}: ${(error as Error).message}`,
      code: "unreadable-file",
    });
  } finally {
    lines.close();
    stream.destroy();
  }
}
