import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runVeracity, spawnServe } from "../testing/serve-process.js";

const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("veracity serve on SIGTERM", () => {
  it("finishes the 20 requests in flight, refuses new connections and exits 0", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-shutdown-"));
    try {
      const database = join(dir, "data");
      const minted = await runVeracity([
        "serve",
        "keys",
        "create",
        "--user",
        "sam",
        "--agent",
        "--db",
        database,
      ]);
      expect(minted.code).toBe(0);
      const key = minted.stdout.trim();
      const serve = spawnServe([
        "--port",
        "0",
        "--db",
        database,
        "--verify-workers",
        "1",
        "--rate-limit",
        "100000",
      ]);
      const { child, exited, output } = serve;
      children.push(child);
      const url = await serve.url;
      const check = (index: number) =>
        fetch(`${url}/v1/check`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            text: `Item ${index} costs 5 m. `.repeat(2000),
            sources: ["#1 ".repeat(10_000)],
          }),
        });
      // Each request takes about 0.1 s in the one worker, so the 20 stay in flight for about 2 s: long enough
      // to be seen in flight before SIGTERM.
      // The worker is started before the measured part.
      expect((await check(-1)).status).toBe(200);
      const inFlight = Array.from({ length: 20 }, (_, index) =>
        check(index).then(async (response) => ({
          status: response.status,
          connection: response.headers.get("connection"),
          passed: ((await response.json()) as { passed?: unknown }).passed,
        })),
      );
      // SIGTERM once the server is answering all 20 (a request still in the kernel's accept queue is not in
      // flight for the server yet: closing the listener drops it).
      await expect
        .poll(
          async () =>
            Number(
              /veracity_http_requests_in_flight (\d+)/.exec(
                await (await fetch(`${url}/metrics`)).text(),
              )?.[1] ?? 0,
            ),
          { timeout: 60_000, interval: 20 },
        )
        .toBeGreaterThanOrEqual(21);
      child.kill("SIGTERM");
      // Once the server says it is finishing, a new TCP connection is refused.
      await expect.poll(output, { timeout: 30_000, interval: 50 }).toMatch(/SIGTERM: finishing in-flight/);
      const { port } = new URL(url);
      const refused = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), "127.0.0.1");
        socket.once("connect", () => {
          socket.destroy();
          resolve("connected");
        });
        socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
      const answers = await Promise.all(inFlight);
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      expect(answers.every((answer) => typeof answer.passed === "boolean")).toBe(true);
      // Answers sent after shutdown began tell the keep-alive client to close the connection.
      expect(answers.some((answer) => answer.connection === "close")).toBe(true);
      expect(refused).toBe("ECONNREFUSED");
      expect(await exited).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
