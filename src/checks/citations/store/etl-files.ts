import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** Integers of 16 digits or more lose precision as JSON numbers: quote them before parsing. */
const longInteger = /(:\s*)(-?\d{16,})(?=\s*[,}\]])/g;

export const parseJsonLine = (line: string): unknown => JSON.parse(line.replace(longInteger, '$1"$2"'));

/** Splits one CSV line (ethereum-etl style: comma separated, optional double quotes, "" escapes). */
export const splitCsvLine = (line: string): string[] => {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields;
};

export interface RowLimit {
  readonly maxRows: number;
}

/**
 * Streams the rows of an ethereum-etl export file as plain objects: JSONL lines parsed exactly, or CSV rows
 * keyed by the header (empty fields become null). Stops with an error past `maxRows`.
 */
export async function* readEtlRows(file: string, limit: RowLimit): AsyncGenerator<Record<string, unknown>> {
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const isCsv = file.endsWith(".csv");
  let header: string[] | undefined;
  let count = 0;
  for await (const line of lines) {
    if (line.trim().length === 0) continue;
    if (isCsv && header === undefined) {
      header = splitCsvLine(line);
      continue;
    }
    count += 1;
    if (count > limit.maxRows) throw new Error(`${file}: more than ${limit.maxRows} rows`);
    if (!isCsv) {
      const parsed = parseJsonLine(line);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error(`${file}: line ${count} is not a JSON object`);
      yield parsed as Record<string, unknown>;
      continue;
    }
    const fields = splitCsvLine(line);
    const row: Record<string, unknown> = {};
    (header ?? []).forEach((name, index) => {
      const value = fields[index];
      row[name] = value === undefined || value === "" ? null : value;
    });
    yield row;
  }
}
