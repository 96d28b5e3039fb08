import { readFile, stat } from "node:fs/promises";
import { ParseResult, Schema } from "effect";
import { parse as parseYaml } from "yaml";
import { InputError } from "../../model/errors.js";
import { readJsonlLines } from "../datasets/jsonl-lines.js";
import type { MalformedLine, MalformedPolicy } from "../datasets/read-records.js";
import { GoldenCase, GoldenSetDocument, maxGoldenCases } from "./golden-case.js";

export interface GoldenSet {
  readonly name: string;
  readonly cases: readonly GoldenCase[];
  readonly malformed: readonly MalformedLine[];
}

/** Largest YAML golden set read (YAML is parsed whole; use JSONL for larger sets). */
export const maxYamlBytes = 5_000_000;

const decodeCase = Schema.decodeUnknownEither(GoldenCase);
const decodeDocument = Schema.decodeUnknownEither(GoldenSetDocument);

const baseName = (path: string): string => path.replace(/^.*[\\/]/, "").replace(/\.(ya?ml|jsonl)$/i, "");

const loadYaml = async (path: string): Promise<GoldenSet> => {
  const size = await stat(path).then(
    (info) => info.size,
    (error: Error) => {
      throw new InputError({ message: `cannot read ${path}: ${error.message}`, code: "unreadable-file" });
    },
  );
  if (size > maxYamlBytes) {
    throw new InputError({
      message: `${path} is larger than ${maxYamlBytes} bytes; use JSONL`,
      code: "too-large",
    });
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(await readFile(path, "utf8"));
  } catch (error) {
    throw new InputError({
      message: `${path}: invalid YAML: ${(error as Error).message}`,
      code: "malformed-file",
    });
  }
  const decoded = decodeDocument(parsed);
  if (decoded._tag === "Left") {
    const detail = ParseResult.TreeFormatter.formatErrorSync(decoded.left);
    throw new InputError({ message: `${path}: not a golden set: ${detail}`, code: "malformed-file" });
  }
  return { name: decoded.right.name ?? baseName(path), cases: decoded.right.cases, malformed: [] };
};

const loadJsonl = async (path: string, onMalformed: MalformedPolicy): Promise<GoldenSet> => {
  const cases: GoldenCase[] = [];
  const malformed: MalformedLine[] = [];
  for await (const line of readJsonlLines(path)) {
    const decoded = line.ok ? decodeCase(line.value) : undefined;
    if (decoded?._tag === "Right") {
      if (cases.length >= maxGoldenCases) {
        throw new InputError({
          message: `${path} has more than ${maxGoldenCases} cases`,
          code: "too-many-records",
        });
      }
      cases.push(decoded.right);
      continue;
    }
    const reason = line.ok
      ? `not a golden case: ${decoded?._tag === "Left" ? ParseResult.TreeFormatter.formatErrorSync(decoded.left).replace(/\s+/g, " ") : "?"}`
      : line.reason;
    malformed.push({ file: path, lineNumber: line.lineNumber, reason });
    if (onMalformed === "fail")
      throw new InputError({ message: `${path}:${line.lineNumber}: ${reason}`, code: "malformed-line" });
  }
  return { name: baseName(path), cases, malformed };
};

/** Loads a golden set from `.yaml`/`.yml` (a `{ name, cases }` document) or `.jsonl` (one case per line). */
export const loadGoldenSet = (path: string, onMalformed: MalformedPolicy): Promise<GoldenSet> => {
  if (/\.ya?ml$/i.test(path)) return loadYaml(path);
  if (/\.jsonl$/i.test(path)) return loadJsonl(path, onMalformed);
  return Promise.reject(
    new InputError({
      message: `${path}: a golden set must be .yaml, .yml or .jsonl`,
      code: "unknown-format",
    }),
  );
};
