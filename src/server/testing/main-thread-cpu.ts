import { readFileSync } from "node:fs";

/**
 * The main thread's CPU seconds (user and system), from /proc: the thread that serves HTTP and writes the audit
 * trail, apart from worker threads. Fields 14 and 15 of the thread's stat, in clock ticks of 1/100 s (Linux's
 * USER_HZ on every architecture it runs Node on); undefined where /proc is missing.
 */
export const mainThreadCpuSeconds = (): number | undefined => {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
};
