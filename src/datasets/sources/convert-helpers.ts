import type { EvalRecord } from "../../eval/record.js";
import type { UpstreamTexts } from "../spec.js";

/** The text of one upstream file; a missing one is a defect of the registry entry. */
export const textOf = (texts: UpstreamTexts, path: string): string => {
  const text = texts.get(path);
  if (text === undefined) throw new Error(`${path} was not downloaded`);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
};

export const parseJsonText = (texts: UpstreamTexts, path: string): unknown => {
  try {
    return JSON.parse(textOf(texts, path));
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`);
  }
};

/** The lines of a file without a trailing carriage return, blank ones dropped. */
export const linesOf = (text: string): string[] =>
  text
    .split("\n")
    .map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line))
    .filter((line) => line.trim().length > 0);

export const recordLine = (record: EvalRecord): string => JSON.stringify(record);

/** Counts the upstream rows left out, by reason. */
export class Skips {
  private readonly byReason = new Map<string, number>();
  add(reason: string): void {
    this.byReason.set(reason, (this.byReason.get(reason) ?? 0) + 1);
  }
  counts(): Record<string, number> {
    return Object.fromEntries(this.byReason);
  }
}
