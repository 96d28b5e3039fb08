import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing/test-server.js";

let server: TestServer;
let exposition: string;

beforeAll(async () => {
  server = await startTestServer();
  const key = await server.createApiKey("metrics-user");
  await server.call("POST", "/v1/check", {
    key,
    body: { text: "It is 330 metres tall.", sources: ["It is 330 metres tall."] },
  });
  const response = await fetch(`${server.url}/metrics`);
  exposition = await response.text();
}, 180_000);

afterAll(async () => {
  await server?.close();
});

/** Metric families in a Prometheus text exposition, from its # TYPE lines. */
const families = (text: string): string[] =>
  [...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((match) => match[1] ?? "");

describe("/metrics names", () => {
  it("serves the standard Node process metrics under their usual names", () => {
    const names = families(exposition);
    for (const standard of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ])
      expect(names).toContain(standard);
  });

  it("serves the caches of the pool's workers, as of the scrape before, without waiting for them", async () => {
    // The one /v1/check above ran in the pool: its numbers layer looked its evidence up once, and found nothing.
    // Each scrape starts a look at the workers' caches and shows what the one before found.
    const sample = (text: string, name: string) =>
      Number(new RegExp(`^${name}\\{cache="numbers\\.evidence-sets"\\} (\\S+)$`, "m").exec(text)?.[1]);
    let latest = exposition;
    await expect
      .poll(
        async () => {
          latest = await (await fetch(`${server.url}/metrics`)).text();
          return sample(latest, "veracity_cache_lookups_total");
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(1);
    expect(sample(latest, "veracity_cache_hits_total")).toBe(0);
    expect(sample(latest, "veracity_cache_entries")).toBe(0);
    for (const cache of [
      "grounding.evidence-sets",
      "grounding.sources",
      "numbers.sources",
      "focus.texts",
      "pool.kept-texts",
      "server.stored-sources",
    ])
      expect(latest).toContain(`veracity_cache_lookups_total{cache="${cache}"}`);
  });

  it("names every other metric veracity_*", () => {
    const other = families(exposition).filter((name) => !/^(process|nodejs)_/.test(name));
    expect(other.length).toBeGreaterThan(5);
    expect(other.filter((name) => !name.startsWith("veracity_"))).toEqual([]);
  });

  it("has every metric the Grafana dashboard in ops/ queries", async () => {
    const dashboard = JSON.parse(
      await readFile(new URL("../../ops/grafana/veracity-dashboard.json", import.meta.url), "utf8"),
    ) as { panels: { targets: { expr: string }[] }[] };
    const queried = new Set(
      dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap((target) =>
          [...target.expr.matchAll(/\b((?:veracity|process|nodejs)_\w+)/g)].map((m) => m[1] ?? ""),
        ),
      ),
    );
    expect(queried.size).toBeGreaterThan(10);
    const served = new Set(families(exposition));
    const missing = [...queried].filter(
      (name) => !served.has(name) && !served.has(name.replace(/_bucket$/, "")),
    );
    expect(missing).toEqual([]);
  });
});
