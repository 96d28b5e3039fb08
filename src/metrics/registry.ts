import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { makeBoundedLabel } from "./bounded-label.js";

/**
 * Every metric Veracity exports, on a registry of its own (never prom-client's global default registry, so
 * two verifiers in one process, or a host application's own metrics, do not collide).
 */
export const makeVeracityMetrics = (registry: Registry = new Registry()) => {
  const registers = [registry];
  /** A metric of the verifiers' caches, labelled by cache. */
  const byCache = <M>(
    Metric: new (configuration: {
      name: string;
      help: string;
      labelNames: readonly ["cache"];
      registers: Registry[];
    }) => M,
    name: string,
    help: string,
  ): M => new Metric({ name, help, labelNames: ["cache"] as const, registers });
  return {
    registry,
    citationsTotal: new Counter({
      name: "veracity_citations_total",
      help: "Citations extracted from checked texts",
      labelNames: ["citation_type"] as const,
      registers,
    }),
    citationsVerified: new Counter({
      name: "veracity_citations_verified_total",
      help: "Citations found in the evidence",
      labelNames: ["citation_type"] as const,
      registers,
    }),
    citationsFailed: new Counter({
      name: "veracity_citations_failed_total",
      help: "Citations that failed verification",
      labelNames: ["citation_type", "failure_reason"] as const,
      registers,
    }),
    uncitedClaims: new Counter({
      name: "veracity_uncited_claims_total",
      help: "Factual statements that carried no citation",
      registers,
    }),
    correctionIterations: new Histogram({
      name: "veracity_correction_iterations",
      help: "Generations the correction loop needed (the last bucket above the limit means exhausted)",
      buckets: [1, 2, 3, 4, 5],
      registers,
    }),
    correctionLoops: new Counter({
      name: "veracity_correction_loops_total",
      help: "Correction loops by outcome: passed (first try), corrected, exhausted",
      labelNames: ["outcome"] as const,
      registers,
    }),
    reportConfidence: new Histogram({
      name: "veracity_report_confidence_score",
      help: "Overall confidence of verified texts",
      buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
      registers,
    }),
    layerLatency: new Histogram({
      name: "veracity_layer_latency_seconds",
      help: "Time one verification layer took",
      labelNames: ["layer"] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
      registers,
    }),
    verificationLatency: new Histogram({
      name: "veracity_verification_latency_seconds",
      help: "Time one whole verification took",
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30],
      registers,
    }),
    verifications: new Counter({
      name: "veracity_verifications_total",
      help: "Verifications by risk level and outcome (passed, failed, error)",
      labelNames: ["risk_level", "outcome"] as const,
      registers,
    }),
    mitigations: new Counter({
      name: "veracity_mitigations_total",
      help: "Mitigations applied, by action",
      labelNames: ["action"] as const,
      registers,
    }),
    modelCalls: new Counter({
      name: "veracity_model_calls_total",
      help: "Model calls sent to a provider, by purpose",
      labelNames: ["purpose"] as const,
      registers,
    }),
    modelTokens: new Counter({
      name: "veracity_model_tokens_total",
      help: "Model tokens, by direction (input, output)",
      labelNames: ["direction"] as const,
      registers,
    }),
    modelCost: new Counter({
      name: "veracity_model_cost_usd_total",
      help: "Model cost in US dollars",
      registers,
    }),
    cacheLookups: byCache(
      Counter,
      "veracity_cache_lookups_total",
      "Look-ups in the verifiers' caches of evidence they have read, by cache",
    ),
    cacheHits: byCache(
      Counter,
      "veracity_cache_hits_total",
      "Look-ups a cache answered (work not done again), by cache",
    ),
    cacheBypassed: byCache(
      Counter,
      "veracity_cache_bypassed_total",
      "Calls a cache did not look up for, their evidence outside the sizes it keeps, by cache",
    ),
    cacheEvictions: byCache(
      Counter,
      "veracity_cache_evictions_total",
      "Entries a cache dropped to make room, by cache",
    ),
    cacheEntries: byCache(
      Gauge,
      "veracity_cache_entries",
      "Entries a cache holds now, by cache (all the workers' caches of a name together)",
    ),
    cacheCharacters: byCache(
      Gauge,
      "veracity_cache_characters",
      "Characters of evidence a cache holds now, by cache",
    ),
    labels: {
      cache: makeBoundedLabel([
        "grounding.evidence-sets",
        "grounding.sources",
        "numbers.evidence-sets",
        "numbers.sources",
        "focus.texts",
        "pool.kept-texts",
        "server.stored-sources",
      ]),
      citationType: makeBoundedLabel(["tx", "addr", "block", "url", "doi", "source"]),
      failureReason: makeBoundedLabel(["not_found", "mismatch", "error"]),
      purpose: makeBoundedLabel(),
      action: makeBoundedLabel(),
    },
  };
};

export type VeracityMetrics = ReturnType<typeof makeVeracityMetrics>;

/** The text for a `/metrics` endpoint, with its content type. */
export const renderMetrics = async (
  metrics: VeracityMetrics,
): Promise<{ readonly contentType: string; readonly body: string }> => ({
  contentType: metrics.registry.contentType,
  body: await metrics.registry.metrics(),
});
