import { ParseResult, Schema } from "effect";
import { InputError } from "../../model/errors.js";
import { EvalRecord } from "../record.js";
import { defaultJsonlLimits, type JsonlLimits, readJsonlLines } from "./jsonl-lines.js";

/** A line that could not be used, with where it is and why. */
export interface MalformedLine {
  readonly file: string;
  readonly lineNumber: number;
  readonly reason: string;
}

export type MalformedPolicy = "skip" | "fail";

export interface ReadRecordsOptions {
  /** `skip` reports the line and goes on; `fail` stops the run with an InputError naming the line. */
  readonly onMalformed: MalformedPolicy;
  /** Called for every malformed line, whatever the policy. */
  readonly reportMalformed: (line: MalformedLine) => void;
  /** Most records read from one file; reading stops with an InputError beyond it. */
  readonly maxRecords: number;
  readonly limits?: JsonlLimits;
}

const decodeRecord = Schema.decodeUnknownEither(EvalRecord);

/** Streams the records of a JSONL file in the common form, validating each line with the EvalRecord schema. */
export async function* readEvalRecords(
  path: string,
  options: ReadRecordsOptions,
): AsyncGenerator<EvalRecord> {
  let count = 0;
  for await (const line of readJsonlLines(path, options.limits ?? defaultJsonlLimits)) {
    const decoded = line.ok ? decodeRecord(line.value) : undefined;
    if (decoded !== undefined && decoded._tag === "Right") {
      count += 1;
      if (count > options.maxRecords) {
        throw new InputError({
          message: `${path} has more than ${options.maxRecords} records (raise --max-records)`,
          code: "too-many-records",
        });
      }
      yield decoded.right;
      continue;
    }
    const reason = line.ok
      ? `not a record: ${decoded?._tag === "Left" ? ParseResult.TreeFormatter.formatErrorSync(decoded.left) : "?"}`
      : line.reason;
    const malformed: MalformedLine = { file: path, lineNumber: line.lineNumber, reason: oneLine(reason) };
    options.reportMalformed(malformed);
    if (options.onMalformed === "fail") {
      throw new InputError({
        message: `${path}:${line.lineNumber}: ${malformed.reason}`,
        code: "malformed-line",
      });
    }
  }
}

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
};
