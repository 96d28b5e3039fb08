import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { freePort } from "../../src/testing/free-port.js";

// Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times.
const clockTicks = 100;

/**
 * The built CLI (`cli`, a `dist/cli/main.js`) serving MCP over HTTP on a free port with `options` added to
 * `veracity mcp --http --port <port>`; resolves once it listens (after its warm-up, which runs first), with its
 * endpoint, the warm-up it reported, its CPU time so far, and a stop.
 */
export const startMcpHttp = async (cli: string, options: readonly string[]) => {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, "mcp", "--http", "--port", String(port), ...options],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  process.once("exit", () => child.kill("SIGKILL"));
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(stderr);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`veracity mcp exited (${code}): ${stderr}`)));
  });
  const warmed = /warmed up: ([^\n]*)/.exec(stderr)?.[1] ?? "";
  return {
    url,
    warmed,
    /** The server process's CPU time so far, in ms (user and system, every thread). */
    cpuMs: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
};
