import type { UsageReport } from "../llm/llm-service.js";
import { type CacheStats, sumCacheStats } from "../model/cache-stats.js";
import type { VerificationResult } from "../model/result.js";
import type { EventHandler, VerificationEvent } from "../verification/events.js";
import type { VeracityMetrics } from "./registry.js";

interface CitationCheck {
  readonly kind: string;
  readonly status: string;
}

const isCitationCheck = (value: unknown): value is CitationCheck =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { kind?: unknown }).kind === "string" &&
  typeof (value as { status?: unknown }).status === "string";

const nonNegative = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * Counts what the event bus carries: each verification by risk level and outcome, its confidence and
 * duration, each error and each mitigation. Subscribe it with `verifier.subscribe(metricsSubscriber(m))`.
 */
export const metricsSubscriber =
  (metrics: VeracityMetrics): EventHandler =>
  (event: VerificationEvent) => {
    switch (event.type) {
      case "verification.completed":
        metrics.verifications.inc({
          risk_level: event.payload.riskLevel,
          outcome: event.payload.passed ? "passed" : "failed",
        });
        metrics.reportConfidence.observe(event.payload.overallConfidence);
        metrics.verificationLatency.observe(nonNegative(event.payload.totalLatencyMs) / 1000);
        return;
      case "verification.failed":
        metrics.verifications.inc({ risk_level: event.payload.riskLevel ?? "unknown", outcome: "error" });
        metrics.verificationLatency.observe(nonNegative(event.payload.totalLatencyMs) / 1000);
        return;
      case "verification.mitigation-applied":
        metrics.mitigations.inc({ action: metrics.labels.action(event.payload.action) });
        return;
    }
  };

/**
 * Records what only the full result holds (events do not carry it): each layer's latency, the citations
 * layer's counts by type and failure reason, uncited statements. Verification counts come from the
 * subscriber, so using both never counts a verification twice.
 */
export const recordResultDetails = (
  metrics: VeracityMetrics,
  result: {
    readonly layersRun: readonly Pick<
      VerificationResult["layersRun"][number],
      "layer" | "latencyMs" | "details"
    >[];
  },
): void => {
  for (const layer of result.layersRun) {
    metrics.layerLatency.observe({ layer: layer.layer }, nonNegative(layer.latencyMs) / 1000);
    if (layer.layer !== "citations") continue;
    metrics.uncitedClaims.inc(nonNegative(layer.details.uncitedStatements));
    const checks = Array.isArray(layer.details.checks) ? layer.details.checks.filter(isCitationCheck) : [];
    for (const check of checks) {
      const citationType = metrics.labels.citationType(check.kind);
      metrics.citationsTotal.inc({ citation_type: citationType });
      if (check.status === "VERIFIED") metrics.citationsVerified.inc({ citation_type: citationType });
      else
        metrics.citationsFailed.inc({
          citation_type: citationType,
          failure_reason: metrics.labels.failureReason(check.status),
        });
    }
  }
};

/**
 * Adds what an LLM service used since the last call: `UsageReport` is cumulative, the counters take the
 * difference. Call it after each request, or on a timer; a report smaller than the last (a new service)
 * starts over from zero.
 */
export const makeModelUsageRecorder = (metrics: VeracityMetrics) => {
  let last: UsageReport | undefined;
  return (usage: UsageReport): void => {
    const previous =
      last !== undefined && usage.calls >= last.calls && usage.inputTokens >= last.inputTokens
        ? last
        : undefined;
    for (const [purpose, calls] of Object.entries(usage.byPurpose)) {
      const delta = calls - (previous?.byPurpose[purpose] ?? 0);
      if (delta > 0) metrics.modelCalls.inc({ purpose: metrics.labels.purpose(purpose) }, delta);
    }
    const input = usage.inputTokens - (previous?.inputTokens ?? 0);
    const output = usage.outputTokens - (previous?.outputTokens ?? 0);
    const cost = usage.costUsd - (previous?.costUsd ?? 0);
    if (input > 0) metrics.modelTokens.inc({ direction: "input" }, input);
    if (output > 0) metrics.modelTokens.inc({ direction: "output" }, output);
    if (cost > 0) metrics.modelCost.inc(cost);
    last = usage;
  };
};

/**
 * Records the verifiers' cache stats at each scrape: the holdings as gauges, the counts as what is new since the
 * last scrape. Counts that fell (a pool's worker replaced, its caches' counts lost) are read as counted from zero
 * again, so the counters only ever rise.
 */
export const makeCacheStatsRecorder = (metrics: VeracityMetrics) => {
  const last = new Map<string, CacheStats>();
  const counters = [
    ["lookups", metrics.cacheLookups],
    ["hits", metrics.cacheHits],
    ["bypassed", metrics.cacheBypassed],
    ["evictions", metrics.cacheEvictions],
  ] as const;
  return (stats: readonly CacheStats[]): void => {
    // Caches past the label's bound share "other": added up under it.
    const labelled = sumCacheStats([
      stats.map((each) => ({ ...each, cache: metrics.labels.cache(each.cache) })),
    ]);
    for (const now of labelled) {
      const cache = now.cache;
      const before = last.get(cache);
      for (const [count, counter] of counters) {
        const from = before !== undefined && now[count] >= before[count] ? before[count] : 0;
        // Also by 0: a cache that has not hit yet shows a series of 0, not none.
        counter.inc({ cache }, now[count] - from);
      }
      metrics.cacheEntries.set({ cache }, now.entries);
      metrics.cacheCharacters.set({ cache }, now.characters);
      last.set(cache, now);
    }
  };
};

/** One correction loop's outcome (see `src/correction`). */
export const recordCorrectionLoop = (
  metrics: VeracityMetrics,
  loop: { readonly iterations: number; readonly outcome: "passed" | "corrected" | "exhausted" },
): void => {
  metrics.correctionIterations.observe(loop.iterations);
  metrics.correctionLoops.inc({ outcome: loop.outcome });
};
