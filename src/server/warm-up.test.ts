import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { defaultWarmUp } from "../memory/gate/warm-up.js";
import { startTestServer } from "./testing/test-server.js";

const stated = [
  "I prefer answers in metric units",
  "I prefer meetings after ten in the morning",
  "I prefer release notes as a bulleted list",
];

it("warms the memory gate on the stored memories before it listens, by default, and writes nothing", async () => {
  const directory = await mkdtemp(join(tmpdir(), "veracity-warm-up-"));
  try {
    const database = join(directory, "data");
    const first = await startTestServer({}, { database });
    const key = await first.createApiKey("carol");
    for (const content of stated) {
      const stored = await first.call("POST", "/v1/memory/ingest", {
        key,
        body: { content, memoryType: "preference", source: "user" },
      });
      expect(stored.status).toBe(201);
    }
    await first.close();

    // The server's default budget (the test server otherwise turns the warm-up off).
    const second = await startTestServer({}, { database, warmUpMs: defaultWarmUp.maxMs });
    try {
      const warmed = second.logLines
        .map((line) => JSON.parse(line) as { msg?: string; checks?: number; sampled?: number })
        .find((line) => line.msg === "memory gate warmed up");
      expect(warmed).toMatchObject({ sampled: stated.length });
      expect(warmed?.checks).toBeGreaterThan(stated.length);
      const audit = await second.call("GET", "/v1/audit", { key });
      expect(audit.status).toBe(200);
      expect(audit.body.entries.map((entry: { action: string }) => entry.action)).toEqual(
        stated.map(() => "store"),
      );
    } finally {
      await second.close();
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}, 120_000);

it("warms its verification workers on made-up answers before it listens, counting none of them", async () => {
  const server = await startTestServer({}, { warmUpMs: 1_500 });
  try {
    const warmed = server.logLines
      .map((line) => JSON.parse(line) as { msg?: string; workers?: number; verifications?: number })
      .find((line) => line.msg === "verification warmed up");
    expect(warmed).toMatchObject({ workers: 1 });
    expect(warmed?.verifications).toBeGreaterThan(0);
    // None of the made-up verifications reached the metrics or the audit trail.
    const metrics = await server.call("GET", "/metrics");
    expect(metrics.body).not.toMatch(/^veracity_verifications_total\{[^}]*\} [1-9]/m);
    const key = await server.createApiKey("dana");
    expect((await server.call("GET", "/v1/audit", { key })).body.entries).toEqual([]);
    // A real check afterwards is counted as before.
    const checked = await server.call("POST", "/v1/check", {
      key,
      body: { text: "The bridge opened in 1932.", sources: ["The bridge opened to traffic in 1932."] },
    });
    expect(checked.status).toBe(200);
    const after = await server.call("GET", "/metrics");
    expect(after.body).toMatch(/^veracity_verifications_total\{[^}]*\} 1$/m);
  } finally {
    await server.close();
  }
}, 120_000);
