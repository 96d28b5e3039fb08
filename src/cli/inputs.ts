import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { UsageError } from "./command.js";

export const defaultMaxInputBytes = 10 * 1024 * 1024;
const readableExtensions = new Set([".txt", ".md", ".markdown", ".json"]);
const maxFilesPerDirectory = 1_000;

export interface NamedText {
  readonly name: string;
  readonly text: string;
}

/** Text out of a .json file: a string, or an object's `text`/`answer`/`response`/`content` field. */
const textFromJson = (raw: string, name: string): string => {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value === "string") return value;
  if (value && typeof value === "object") {
    for (const key of ["text", "answer", "response", "content"]) {
      const field = (value as Record<string, unknown>)[key];
      if (typeof field === "string") return field;
    }
  }
  throw new UsageError(
    `${name}: expected a JSON string or an object with a "text", "answer", "response" or "content" string`,
  );
};

const checkSize = (bytes: number, name: string, limit: number) => {
  if (bytes > limit) {
    throw new UsageError(
      `${name} is ${bytes} bytes, over the input limit of ${limit} bytes (raise it with --max-input-bytes)`,
    );
  }
};

const readOneFile = async (path: string, limit: number, name = path): Promise<NamedText> => {
  const extension = extname(path).toLowerCase();
  if (!readableExtensions.has(extension)) {
    throw new UsageError(`${path}: unsupported file type "${extension || "(none)"}"; use .txt, .md or .json`);
  }
  const info = await stat(path);
  checkSize(info.size, path, limit);
  const raw = await readFile(path, "utf8");
  return { name, text: extension === ".json" ? textFromJson(raw, name) : raw };
};

/** A file that is not text: it holds a NUL byte in its first 8 KB (what git and grep go by). */
const looksBinary = async (path: string): Promise<boolean> => {
  const head = (await readFile(path)).subarray(0, 8192);
  return head.includes(0);
};

/**
 * Reads a file, every readable file of a directory (sorted, not recursive), or standard input for "-". In a
 * directory, the files named in `skip` (the answer being checked, as an absolute path) and binary files are
 * left out.
 */
export const readTexts = async (
  target: string,
  options: { cwd: string; limit: number; readStdin: () => Promise<string>; skip?: readonly string[] },
): Promise<NamedText[]> => {
  if (target === "-") {
    const text = await options.readStdin();
    checkSize(Buffer.byteLength(text), "standard input", options.limit);
    return [{ name: "stdin", text }];
  }
  const path = resolve(options.cwd, target);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new UsageError(`cannot read ${target}: no such file or directory`);
  }
  if (!info.isDirectory()) return [await readOneFile(path, options.limit, target)];
  const skipped = new Set(options.skip ?? []);
  const entries = (await readdir(path))
    .filter((entry) => readableExtensions.has(extname(entry).toLowerCase()))
    .filter((entry) => !skipped.has(join(path, entry)))
    .sort();
  if (entries.length > maxFilesPerDirectory) {
    throw new UsageError(
      `${target} holds ${entries.length} source files; the limit is ${maxFilesPerDirectory}`,
    );
  }
  const texts: NamedText[] = [];
  let total = 0;
  for (const entry of entries) {
    if (await looksBinary(join(path, entry))) continue;
    const text = await readOneFile(join(path, entry), options.limit, join(target, entry));
    total += Buffer.byteLength(text.text);
    checkSize(total, `the files of ${target}`, options.limit);
    texts.push(text);
  }
  return texts;
};
