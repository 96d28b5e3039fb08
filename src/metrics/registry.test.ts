import { describe, expect, it } from "vitest";
import type { VerificationResult } from "../model/result.js";
import {
  makeCacheStatsRecorder,
  makeModelUsageRecorder,
  metricsSubscriber,
  recordCorrectionLoop,
  recordResultDetails,
} from "./record.js";
import { makeVeracityMetrics, renderMetrics } from "./registry.js";

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A parser for the Prometheus text exposition format (0.0.4): HELP/TYPE comments and samples. */
const parseExposition = (text: string) => {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith("# HELP ")) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]!] = pair[2]!;
    const value = sample[3] === "+Inf" ? Number.POSITIVE_INFINITY : Number(sample[3]);
    if (Number.isNaN(value)) throw new Error(`not a number: ${line}`);
    samples.push({ name: sample[1]!, labels, value });
  }
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples.find(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, expected]) => sample.labels[key] === expected),
    )?.value;
  return { types, samples, value };
};

const result = (overrides: Partial<VerificationResult> = {}): VerificationResult => ({
  verdict: "fail",
  passed: false,
  coverage: 1,
  overallConfidence: 0.4,
  riskLevel: "high",
  layersRun: [
    { layer: "grounding", passed: true, score: 0.9, latencyMs: 12, details: {} },
    {
      layer: "citations",
      passed: false,
      score: 0.3,
      latencyMs: 250,
      details: {
        uncitedStatements: 2,
        checks: [
          { kind: "tx", value: "0xabc", status: "VERIFIED" },
          { kind: "tx", value: "0xdef", status: "NOT_FOUND" },
          { kind: "block", value: "17", status: "MISMATCH" },
        ],
      },
    },
  ],
  mitigations: [],
  totalLatencyMs: 270,
  costIncurred: 0,
  claims: [],
  skippedLayers: [],
  reasons: [],
  ...overrides,
});

describe("veracity metrics", () => {
  it("exposes every metric with its type on a private registry", async () => {
    const metrics = makeVeracityMetrics();
    const { types } = parseExposition((await renderMetrics(metrics)).body);
    expect(Object.fromEntries(types)).toEqual({
      veracity_citations_total: "counter",
      veracity_citations_verified_total: "counter",
      veracity_citations_failed_total: "counter",
      veracity_uncited_claims_total: "counter",
      veracity_correction_iterations: "histogram",
      veracity_correction_loops_total: "counter",
      veracity_report_confidence_score: "histogram",
      veracity_layer_latency_seconds: "histogram",
      veracity_verification_latency_seconds: "histogram",
      veracity_verifications_total: "counter",
      veracity_mitigations_total: "counter",
      veracity_model_calls_total: "counter",
      veracity_model_tokens_total: "counter",
      veracity_model_cost_usd_total: "counter",
      veracity_cache_lookups_total: "counter",
      veracity_cache_hits_total: "counter",
      veracity_cache_bypassed_total: "counter",
      veracity_cache_evictions_total: "counter",
      veracity_cache_entries: "gauge",
      veracity_cache_characters: "gauge",
    });
    // Two registries in one process do not collide (no global default registry).
    expect(() => makeVeracityMetrics()).not.toThrow();
  });

  it("records events, result details, model usage and correction loops, and renders them", async () => {
    const metrics = makeVeracityMetrics();
    const subscriber = metricsSubscriber(metrics);
    await subscriber({
      type: "verification.completed",
      payload: {
        riskLevel: "high",
        layersRun: 2,
        passed: false,
        overallConfidence: 0.4,
        totalLatencyMs: 270,
        mitigationsApplied: 1,
      },
    });
    await subscriber({
      type: "verification.completed",
      payload: {
        riskLevel: "low",
        layersRun: 1,
        passed: true,
        overallConfidence: 0.95,
        totalLatencyMs: 5,
        mitigationsApplied: 0,
      },
    });
    await subscriber({ type: "verification.failed", payload: { error: "timeout", totalLatencyMs: 1000 } });
    await subscriber({
      type: "verification.mitigation-applied",
      payload: { action: "regenerate", reason: "x", riskLevel: "high" },
    });
    recordResultDetails(metrics, result());
    const recordUsage = makeModelUsageRecorder(metrics);
    const usage = {
      calls: 3,
      cachedCalls: 0,
      failedCalls: 0,
      inputTokens: 300,
      outputTokens: 40,
      costUsd: 0.002,
      byPurpose: { nli: 3 },
    };
    recordUsage(usage);
    recordUsage({
      ...usage,
      calls: 5,
      inputTokens: 500,
      outputTokens: 60,
      byPurpose: { nli: 4, regenerate: 1 },
    });
    recordCorrectionLoop(metrics, { iterations: 2, outcome: "corrected" });
    recordCorrectionLoop(metrics, { iterations: 3, outcome: "exhausted" });

    const rendered = await renderMetrics(metrics);
    expect(rendered.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const { value } = parseExposition(rendered.body);
    expect(value("veracity_verifications_total", { risk_level: "high", outcome: "failed" })).toBe(1);
    expect(value("veracity_verifications_total", { risk_level: "low", outcome: "passed" })).toBe(1);
    expect(value("veracity_verifications_total", { risk_level: "unknown", outcome: "error" })).toBe(1);
    expect(value("veracity_report_confidence_score_bucket", { le: "0.5" })).toBe(1);
    expect(value("veracity_report_confidence_score_bucket", { le: "1" })).toBe(2);
    expect(value("veracity_report_confidence_score_count")).toBe(2);
    expect(value("veracity_mitigations_total", { action: "regenerate" })).toBe(1);
    expect(value("veracity_citations_total", { citation_type: "tx" })).toBe(2);
    expect(value("veracity_citations_verified_total", { citation_type: "tx" })).toBe(1);
    expect(
      value("veracity_citations_failed_total", { citation_type: "tx", failure_reason: "not_found" }),
    ).toBe(1);
    expect(
      value("veracity_citations_failed_total", { citation_type: "block", failure_reason: "mismatch" }),
    ).toBe(1);
    expect(value("veracity_uncited_claims_total")).toBe(2);
    expect(value("veracity_layer_latency_seconds_bucket", { layer: "citations", le: "0.5" })).toBe(1);
    expect(value("veracity_layer_latency_seconds_bucket", { layer: "citations", le: "0.1" })).toBe(0);
    expect(value("veracity_model_calls_total", { purpose: "nli" })).toBe(4);
    expect(value("veracity_model_calls_total", { purpose: "regenerate" })).toBe(1);
    expect(value("veracity_model_tokens_total", { direction: "input" })).toBe(500);
    expect(value("veracity_model_cost_usd_total")).toBeCloseTo(0.002, 9);
    expect(value("veracity_correction_iterations_bucket", { le: "2" })).toBe(1);
    expect(value("veracity_correction_iterations_bucket", { le: "3" })).toBe(2);
    expect(value("veracity_correction_loops_total", { outcome: "exhausted" })).toBe(1);
  });

  it("keeps label values bounded", async () => {
    const metrics = makeVeracityMetrics();
    for (let index = 0; index < 100; index++)
      metrics.mitigations.inc({ action: metrics.labels.action(`action-${index}`) });
    metrics.mitigations.inc({ action: metrics.labels.action('evil"label\nvalue') });
    const { samples } = parseExposition((await renderMetrics(metrics)).body);
    const actions = samples.filter((sample) => sample.name === "veracity_mitigations_total");
    expect(actions.length).toBe(33);
    expect(actions.find((sample) => sample.labels.action === "other")?.value).toBe(69);
  });

  it("records caches' counts as counters that only rise, and their holdings as gauges", async () => {
    const metrics = makeVeracityMetrics();
    const record = makeCacheStatsRecorder(metrics);
    const cache = (lookups: number, hits: number, entries: number) => ({
      cache: "grounding.sources",
      lookups,
      hits,
      bypassed: 0,
      evictions: 1,
      entries,
      characters: 100 * entries,
    });
    record([cache(10, 4, 3)]);
    record([cache(25, 9, 5)]);
    let { value } = parseExposition((await renderMetrics(metrics)).body);
    expect(value("veracity_cache_lookups_total", { cache: "grounding.sources" })).toBe(25);
    expect(value("veracity_cache_hits_total", { cache: "grounding.sources" })).toBe(9);
    expect(value("veracity_cache_evictions_total", { cache: "grounding.sources" })).toBe(1);
    expect(value("veracity_cache_entries", { cache: "grounding.sources" })).toBe(5);
    expect(value("veracity_cache_characters", { cache: "grounding.sources" })).toBe(500);
    // A pool's worker replaced: its counts are gone and the sum falls. What is counted now is counted anew.
    record([cache(6, 2, 1)]);
    ({ value } = parseExposition((await renderMetrics(metrics)).body));
    expect(value("veracity_cache_lookups_total", { cache: "grounding.sources" })).toBe(31);
    expect(value("veracity_cache_hits_total", { cache: "grounding.sources" })).toBe(11);
    expect(value("veracity_cache_entries", { cache: "grounding.sources" })).toBe(1);
  });

  it("adds up caches past the label's bound under one label", async () => {
    const metrics = makeVeracityMetrics();
    const record = makeCacheStatsRecorder(metrics);
    const custom = Array.from({ length: 40 }, (_, i) => ({
      cache: `custom.cache-${i}`,
      lookups: 1,
      hits: 1,
      bypassed: 0,
      evictions: 0,
      entries: 1,
      characters: 1,
    }));
    record(custom);
    const { samples } = parseExposition((await renderMetrics(metrics)).body);
    const lookups = samples.filter((sample) => sample.name === "veracity_cache_lookups_total");
    // 32 values per label at most, the seven named caches among them: the other 15 of the 40 share "other".
    expect(lookups.length).toBe(26);
    expect(lookups.find((sample) => sample.labels.cache === "other")?.value).toBe(15);
    expect(lookups.reduce((sum, sample) => sum + sample.value, 0)).toBe(40);
  });
});
