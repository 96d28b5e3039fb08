import { execFileSync, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const rulesDir = resolve(import.meta.dirname, "../../ops/prometheus");
const promtoolFound = spawnSync("promtool", ["--version"], { stdio: "ignore" }).status === 0;
const metricNames = [
  "veracity_citations_total",
  "veracity_citations_failed_total",
  "veracity_verifications_total",
  "veracity_report_confidence_score_bucket",
  "veracity_correction_loops_total",
  "veracity_http_connections_refused_total",
  "veracity_http_connections_refused_per_address_total",
  "veracity_cache_lookups_total",
  "veracity_cache_hits_total",
  "veracity_cache_evictions_total",
];

describe("Prometheus alert rules", () => {
  it.skipIf(!promtoolFound)(
    "pass `promtool check rules` (skipped without promtool: apt-get install prometheus)",
    () => {
      const output = execFileSync("promtool", ["check", "rules", resolve(rulesDir, "alerts.yml")], {
        encoding: "utf8",
      });
      expect(output).toMatch(/SUCCESS: 6 rules found/);
    },
  );

  it.skipIf(!promtoolFound)("fire and stay quiet as their unit tests expect (`promtool test rules`)", () => {
    const run = spawnSync("promtool", ["test", "rules", resolve(rulesDir, "alerts.test.yml")], {
      encoding: "utf8",
    });
    expect(`${run.stdout}${run.stderr}`).toMatch(/SUCCESS/);
    expect(run.status).toBe(0);
  });

  it("only name metrics the registry exports", async () => {
    const { readFile } = await import("node:fs/promises");
    const { makeVeracityMetrics } = await import("./registry.js");
    // The server registers its connection counts beside the verification metrics, on the same registry.
    const { makeConnectionMetrics } = await import("../server/http-metrics.js");
    const rules = await readFile(resolve(rulesDir, "alerts.yml"), "utf8");
    const { registry } = makeVeracityMetrics();
    makeConnectionMetrics(registry);
    const exported = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    const used = new Set(rules.match(/veracity_[a-z_]+(?=[{[])/g));
    for (const name of used) expect(exported).toContain(name.replace(/_bucket$/, ""));
    expect([...used].sort()).toEqual([...metricNames].sort());
  });
});
