import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { currentBuildOf } from "../../src/facade/worker-pool/current-build.js";

/** What bench-server.ts reports for a measurement: CPU of every thread, the main thread's event-loop delay. */
export interface ServerStats {
  readonly cpuSeconds?: number;
  /** Of which the main thread's (HTTP, the audit trail; not the verifying workers), where /proc has it. */
  readonly mainThreadCpuSeconds?: number;
  readonly loopDelayMs?: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Resident memory at the end of the measurement and its peak (during it, or since the start: `peakSince`). */
  readonly memory?: {
    readonly residentMb: number;
    readonly peakResidentMb: number;
    readonly peakSince: "measurement" | "start";
  };
}

export interface ServerProcess {
  readonly url: string;
  readonly key: string;
  /** Another user's key (undefined from a build whose bench server made only one). */
  readonly otherKey: string | undefined;
  readonly script: string;
  /** Ends the server's current measurement (SIGUSR2), starts the next and resolves with the ended one's figures. */
  readonly mark: () => Promise<ServerStats>;
  readonly stop: () => Promise<void>;
}

const repoRoot = resolve(import.meta.dirname, "../..");

/**
 * Starts src/server/testing/bench-server.ts in its own process, `env` added to this process's environment:
 * the built one (what `npx veracity serve` runs) when the build in dist/ is current, else the sources via tsx,
 * by the rule the project's own code follows (`currentBuildOf`); BENCH_SERVER_SCRIPT names another script,
 * BENCH_SERVER_NODE_ARGS adds node flags.
 */
export const startServerProcess = (env: Record<string, string> = {}) =>
  new Promise<ServerProcess>((resolvePromise, reject) => {
    const source = resolve(repoRoot, "src/server/testing/bench-server.ts");
    const given = process.env.BENCH_SERVER_SCRIPT;
    const scriptArgs =
      given === undefined
        ? currentBuildOf(repoRoot).nodeArgsToRun(source)
        : [...(given.endsWith(".ts") ? ["--import", "tsx"] : []), given];
    const script = scriptArgs.at(-1) as string;
    if (given === undefined && script === source)
      console.warn(
        "dist/ is older than the sources or missing: the server runs through tsx (npm run build first)",
      );
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
    const child = spawn(process.execPath, [...nodeArgs, ...scriptArgs], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env },
    });
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
      const match = /READY (\S+) (\S+)(?: (\S+))?/.exec(output);
      if (ready || !match?.[1] || !match[2]) return;
      ready = true;
      resolvePromise({
        url: match[1],
        key: match[2],
        otherKey: match[3],
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
