import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { CliIO } from "./command.js";

/** A progress line on stderr, rewritten in place. */
export interface Progress {
  /** Absent when progress is off, so callers can skip the work of computing a message. */
  readonly update?: (message: string, options?: { readonly force?: boolean }) => void;
  /** Clears the line (the output that follows starts on a clean line). */
  readonly done: () => void;
}

/** Messages closer together than this replace each other unseen: a 10,000-record run writes ~10 lines a second. */
const minimumIntervalMs = 100;

/**
 * Progress on one rewritten stderr line, only on a terminal (a log or a pipe gets no progress noise). Updates
 * within 100 ms of the last shown one are dropped unless `force`d (the last state of a stage).
 */
export const terminalProgress = (
  isTerminal: boolean,
  write: (text: string) => void,
  now: () => number = Date.now,
): Progress => {
  if (!isTerminal) return { done: () => {} };
  let shown = false;
  let last = 0;
  return {
    update: (message, options) => {
      const at = now();
      if (shown && options?.force !== true && at - last < minimumIntervalMs) return;
      last = at;
      shown = true;
      write(`\r\x1b[2K${message}`);
    },
    done: () => {
      if (shown) write("\r\x1b[2K");
      shown = false;
    },
  };
};

/** A command's progress: on when stderr is a terminal, off with `--quiet`. */
export const commandProgress = (io: CliIO, quiet: boolean | undefined): Progress =>
  terminalProgress(io.stderrIsTTY === true && quiet !== true, io.stderr);

const barWidth = 24;

/** `eval [#########---------------] 3,750/10,000 (38%)`; without a total, a plain count. */
export const countBar = (label: string, done: number, total: number | undefined): string => {
  const count = done.toLocaleString("en-US");
  if (total === undefined || total <= 0) return `${label} ${count}`;
  const share = Math.min(1, done / total);
  const filled = Math.round(share * barWidth);
  return `${label} [${"#".repeat(filled)}${"-".repeat(barWidth - filled)}] ${count}/${total.toLocaleString("en-US")} (${Math.floor(share * 100)}%)`;
};

/** The non-blank lines of a text file, at most `limit`: the size of a JSONL file before it is read. */
export const countLines = async (path: string, limit: number): Promise<number> => {
  let count = 0;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() !== "") count += 1;
    if (count >= limit) break;
  }
  lines.close();
  return count;
};
