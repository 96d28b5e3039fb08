import { readFileSync, writeFileSync } from "node:fs";

/** The process's resident memory now and its peak, in MB; `peakSince` says from when the peak counts. */
export interface ResidentMemory {
  readonly residentMb: number;
  readonly peakResidentMb: number;
  readonly peakSince: "measurement" | "start";
}

/** Whole megabytes of a size in kilobytes (how /proc and `maxRSS` give it). */
const megabytes = (kilobytes: number) => Math.round(kilobytes / 1024);

/**
 * Starts a new peak: on Linux, writing 5 to /proc/self/clear_refs sets the process's high-water mark of resident
 * memory (VmHWM) back to what it holds now, so the next reading is the peak of one measurement. False where that
 * is not possible (another system, or a kernel that refuses): the peak then counts from the process's start.
 */
export const resetResidentPeak = (): boolean => {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
};

/** The resident memory now and the peak since the last reset (or since the start, where none took). */
export const residentMemory = (resetTook: boolean): ResidentMemory => {
  const now = Math.round(process.memoryUsage().rss / 2 ** 20);
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const peak = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    if (peak !== undefined)
      return {
        residentMb: now,
        peakResidentMb: megabytes(Number(peak)),
        peakSince: resetTook ? "measurement" : "start",
      };
  } catch {
    // No /proc: the peak Node itself keeps, from the start.
  }
  return { residentMb: now, peakResidentMb: megabytes(process.resourceUsage().maxRSS), peakSince: "start" };
};
