import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";

/** What bench-server.ts reports for a measurement: CPU of every thread, the main thread's event-loop delay. */
export interface ServerStats {
  readonly cpuSeconds?: number;
  /** Of which the main thread's (HTTP, the audit trail; not the verifying workers), where /proc has it. */
  readonly mainThreadCpuSeconds?: number;
  readonly loopDelayMs?: { readonly p50: number; readonly p99: number; readonly max: number };
}

export interface ServerProcess {
  readonly url: string;
  readonly key: string;
  readonly script: string;
  /** Ends the server's current measurement (SIGUSR2), starts the next and resolves with the ended one's figures. */
  readonly mark: () => Promise<ServerStats>;
  readonly stop: () => Promise<void>;
}

const repoRoot = resolve(import.meta.dirname, "../..");

/**
 * Starts src/server/testing/bench-server.ts in its own process, `env` added to this process's environment:
 * the built one (what `npx veracity serve` runs) when `npm run build` has made it, else the sources via tsx;
 * BENCH_SERVER_SCRIPT names another, BENCH_SERVER_NODE_ARGS adds node flags.
 */
export const startServerProcess = (env: Record<string, string> = {}) =>
  new Promise<ServerProcess>((resolvePromise, reject) => {
    const built = resolve(repoRoot, "dist/server/testing/bench-server.js");
    const source = resolve(repoRoot, "src/server/testing/bench-server.ts");
    const script = process.env.BENCH_SERVER_SCRIPT ?? (existsSync(built) ? built : source);
    if (script === built && statSync(built).mtimeMs < statSync(source).mtimeMs)
      console.warn(`${built} is older than its source: npm run build, or BENCH_SERVER_SCRIPT=${source}`);
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
    const child = spawn(
      process.execPath,
      [...nodeArgs, ...(script.endsWith(".ts") ? ["--import", "tsx"] : []), script],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } },
    );
    // A bench that fails half-way leaves no server behind.
    process.once("exit", () => child.kill("SIGTERM"));
    let output = "";
    let ready = false;
    let statsSeen = 0;
    let onStats: (() => void) | undefined;
    const statsLines = () => [...output.matchAll(/STATS (\{.*\})/g)].map((match) => match[1] as string);
    const waitForStats = (timeoutMs: number) =>
      new Promise<ServerStats>((done) => {
        const settle = () => {
          const lines = statsLines();
          if (lines.length <= statsSeen) return false;
          statsSeen = lines.length;
          onStats = undefined;
          clearTimeout(timer);
          done(JSON.parse(lines.at(-1) as string) as ServerStats);
          return true;
        };
        // A server built before SIGUSR2 printed its figures answers with none: they are then unknown.
        const timer = setTimeout(() => {
          onStats = undefined;
          done({});
        }, timeoutMs);
        if (!settle()) onStats = settle;
      });
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.BENCH_SERVER_STDOUT === "1") process.stderr.write(chunk);
      onStats?.();
      const match = /READY (\S+) (\S+)/.exec(output);
      if (ready || !match?.[1] || !match[2]) return;
      ready = true;
      resolvePromise({
        url: match[1],
        key: match[2],
        script,
        mark: () => {
          const stats = waitForStats(5_000);
          child.kill("SIGUSR2");
          return stats;
        },
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners("exit");
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`server exited early (${code}): ${output}`)));
  });
