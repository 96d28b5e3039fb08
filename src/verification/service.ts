import { Context, Effect, Layer } from "effect";
import { Calibrator } from "../calibration/calibrator.js";
import { answerFeatures, hasJudgedClaims } from "../calibration/combiner/answer-features.js";
import { hallucinationProbability } from "../calibration/combiner/combiner.js";
import { withRequestBudget } from "../llm/budget.js";
import { Mitigator } from "../mitigation/mitigator.js";
import { mitigateWithinBudget } from "../mitigation/within-budget.js";
import type { CacheStats } from "../model/cache-stats.js";
import type { ClaimFinding } from "../model/claim.js";
import {
  type CalibrationError,
  type InputError,
  VerificationError,
  type VerificationTimeoutError,
} from "../model/errors.js";
import type { Claim, LayerInput, VerificationLayer } from "../model/layer.js";
import { isEvidenceLayer, type LayerName } from "../model/layer-name.js";
import type { LayerResult, SkippedLayer } from "../model/layer-result.js";
import type { Mitigation } from "../model/mitigation.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { RiskLevel } from "../model/risk.js";
import { VerificationConfig } from "./config.js";
import { decide } from "./decision.js";
import { EventBus } from "./events.js";
import { withOriginalSpans } from "./focus-evidence.js";
import { makeFocusIndexCache } from "./focus-index.js";
import { mergeClaimFindings } from "./merge-claims.js";
import { prepareInput } from "./prepare-input.js";
import { LayerRegistry } from "./registry.js";
import { RiskAssessor } from "./risk-assessor.js";
import { runWithLimit } from "./run-layer.js";

export interface VerificationServiceShape {
  /** Verifies a text with the layers its risk level calls for, plus every evidence layer that can run. */
  readonly verify: (
    request: VerificationRequest,
  ) => Effect.Effect<VerificationResult, VerificationError | VerificationTimeoutError | InputError>;
  /** Runs one layer in isolation (tests, targeted re-verification). */
  readonly runLayer: (
    layer: LayerName,
    text: string,
    context?: string,
    sources?: readonly string[],
  ) => Effect.Effect<LayerResult, VerificationError | VerificationTimeoutError | InputError>;
  readonly assessRisk: (text: string, context?: string) => Effect.Effect<RiskLevel, VerificationError>;
  readonly mitigate: (
    text: string,
    failedLayers: readonly LayerResult[],
    claims?: readonly ClaimFinding[],
  ) => Effect.Effect<Mitigation, VerificationError>;
  readonly calibrateConfidence: (
    rawScore: number,
    layer: LayerName,
  ) => Effect.Effect<number, CalibrationError>;
  /** What the caches of the service (large texts focused before) and of its layers did and hold. */
  readonly cacheStats: () => Effect.Effect<readonly CacheStats[]>;
}

export class VerificationService extends Context.Tag("veracity/VerificationService")<
  VerificationService,
  VerificationServiceShape
>() {}

/** A model layer refused because a call would exceed the request's cost or latency budget. */
const isBudgetSkip = (error: VerificationError | VerificationTimeoutError): boolean =>
  error._tag === "VerificationError" &&
  typeof error.cause === "object" &&
  error.cause !== null &&
  (error.cause as { _tag?: unknown })._tag === "ModelBudgetExceededError";

const noModelReason =
  "no model configured: set VERACITY_MODEL or pass a model (e.g. --model openai:gpt-4o-mini)";

/** Claims no layer judged are reported as unverifiable, never as supported. */
const withUnjudgedClaims = (claims: readonly Claim[], judged: readonly ClaimFinding[]): ClaimFinding[] => {
  const seen = new Set(judged.map((finding) => `${finding.span.start}:${finding.span.end}`));
  const unjudged: ClaimFinding[] = claims
    .filter((claim) => !seen.has(`${claim.span.start}:${claim.span.end}`))
    .map((claim) => ({
      text: claim.text,
      span: claim.span,
      kind: claim.kind,
      verdict: "unverifiable",
      score: 0,
      evidence: [],
      issues: [{ code: "NOT_CHECKED", message: "no layer that ran judged this claim", span: claim.span }],
      layers: [],
    }));
  return [...judged, ...unjudged].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
};

/**
 * Each layer's result revised by its `reconcile`, if it has one, against the raw results of the others. A
 * reconcile that throws leaves the layer's own result as it ran.
 */
const reconciled = (
  input: LayerInput,
  succeeded: readonly { readonly layer: VerificationLayer; readonly result: LayerResult }[],
): LayerResult[] =>
  succeeded.map(({ layer, result }, position) => {
    if (layer.reconcile === undefined || succeeded.length < 2) return result;
    const others = succeeded.filter((_, other) => other !== position).map((other) => other.result);
    try {
      return layer.reconcile(input, result, others);
    } catch {
      return result;
    }
  });

export const makeVerificationService = Effect.gen(function* () {
  const settings = yield* VerificationConfig;
  const registry = yield* LayerRegistry;
  const riskAssessor = yield* RiskAssessor;
  const calibrator = yield* Calibrator;
  const mitigator = yield* Mitigator;
  const events = yield* EventBus;
  // Large texts focusing has read before, indexed once for this verifier (dropped with it).
  const focusIndexes = makeFocusIndexCache();

  /** The layers to try for a request, in order: an explicit list, or the evidence layers then the profile's. */
  const candidates = (request: VerificationRequest, profileLayers: readonly LayerName[]): LayerName[] => {
    if (request.layers && request.layers.length > 0) return [...new Set(request.layers)];
    const evidence = registry.all.filter((layer) => isEvidenceLayer(layer.name)).map((layer) => layer.name);
    return [...new Set([...evidence, ...profileLayers])];
  };

  const verify: VerificationServiceShape["verify"] = (request) => verifyWith(request, true);

  /** One verification; `mitigate: false` for the check of a rewrite, which is not mitigated again. */
  const verifyWith = (
    request: VerificationRequest,
    mitigate: boolean,
  ): ReturnType<VerificationServiceShape["verify"]> => {
    const started = performance.now();
    // Known once assessed, so a verification that fails later still reports its risk level.
    let assessedRisk: RiskLevel | undefined = request.riskOverride;
    return Effect.gen(function* () {
      const { input, allClaims, focused } = yield* prepareInput(request, settings, focusIndexes);
      const riskLevel = request.riskOverride ?? (yield* riskAssessor.assess(request.text, request.context));
      assessedRisk = riskLevel;
      const profile = settings.profiles[riskLevel];
      const latencyBudget = request.maxLatencyMs ?? profile.maxLatencyMs;

      const skipped: SkippedLayer[] = [];
      const runnable: VerificationLayer[] = [];
      for (const name of candidates(request, profile.layersToRun)) {
        if (settings.enabledLayers[name] === false) {
          skipped.push({ layer: name, reason: "disabled by configuration" });
          continue;
        }
        const layer = registry.get(name);
        if (!layer) {
          skipped.push({
            layer: name,
            reason: isEvidenceLayer(name) ? "layer not configured" : noModelReason,
          });
          continue;
        }
        const readiness = layer.readiness(input);
        if (readiness.ready) runnable.push(layer);
        else skipped.push({ layer: name, reason: readiness.reason });
      }

      const outcomes = yield* Effect.forEach(
        runnable,
        (layer) => {
          const limit = Math.min(settings.layerTimeouts[layer.name] ?? latencyBudget, latencyBudget);
          return Effect.either(runWithLimit(layer, input, limit));
        },
        // Synchronous layers gain nothing from fibers of their own: forking one each only costs time.
        {
          concurrency: runnable.every((layer) => layer.synchronous)
            ? 1
            : Math.max(1, settings.maxConcurrentLayers),
        },
      ).pipe(withRequestBudget({ maxCost: request.maxCost ?? profile.maxCost, maxLatencyMs: latencyBudget }));

      const succeeded: { readonly layer: VerificationLayer; readonly result: LayerResult }[] = [];
      const errored: SkippedLayer[] = [];
      for (const [position, outcome] of outcomes.entries()) {
        const layer = runnable[position] as VerificationLayer;
        if (outcome._tag === "Left") {
          if (isBudgetSkip(outcome.left))
            skipped.push({ layer: layer.name, reason: `over budget: ${outcome.left.message}` });
          else errored.push({ layer: layer.name, reason: outcome.left.message, error: true });
          continue;
        }
        succeeded.push({ layer, result: withOriginalSpans(outcome.right, focused) });
      }
      const ran: LayerResult[] = [];
      for (const own of reconciled(input, succeeded)) {
        const calibrated = yield* calibrator
          .calibrate(own.score, own.layer)
          .pipe(Effect.orElseSucceed(() => own.score));
        ran.push({ ...own, score: calibrated, details: { ...own.details, rawScore: own.score } });
      }

      if (allClaims.length > input.claims.length) {
        errored.push({
          layer: ran[0]?.layer ?? "grounding",
          reason: `the text has ${allClaims.length} claims; only the first ${input.claims.length} were checked`,
          error: true,
        });
      }
      const claims = withUnjudgedClaims(allClaims, mergeClaimFindings(ran));
      const hallucinationScore = hasJudgedClaims(claims)
        ? hallucinationProbability(settings.combiner, answerFeatures(claims, ran))
        : undefined;
      const decision = decide({
        layers: ran,
        skipped,
        errored,
        riskLevel,
        profile,
        strict: request.strict ?? settings.strict,
        claims,
        hallucinationScore,
        combiner: settings.combiner,
      });
      const mitigations: Mitigation[] = [];
      const failedLayers = ran.filter(
        (layer) => !layer.passed || (!isEvidenceLayer(layer.layer) && layer.score < profile.minConfidence),
      );
      if (decision.verdict === "fail" && ran.length > 0 && mitigate) {
        mitigations.push(
          yield* mitigateWithinBudget({
            mitigate: mitigator.mitigate(request.text, failedLayers.length > 0 ? failedLayers : ran, claims),
            text: request.text,
            claims,
            remainingMs: () => latencyBudget - (performance.now() - started),
            reverify: (text, budgetMs) =>
              verifyWith({ ...request, text, riskOverride: riskLevel, maxLatencyMs: budgetMs }, false),
          }),
        );
      } else if (decision.verdict === "unverified" && input.evidence.length === 0) {
        mitigations.push({
          action: "request-sources",
          reason: "nothing could verify this text: provide sources or context, or configure a model",
          originalText: request.text,
        });
      }

      const result: VerificationResult = {
        verdict: decision.verdict,
        passed: decision.passed,
        ...(hallucinationScore === undefined ? {} : { hallucinationScore }),
        coverage:
          claims.length === 0
            ? 0
            : claims.filter((claim) => claim.verdict !== "unverifiable").length / claims.length,
        overallConfidence: decision.overallConfidence,
        riskLevel,
        layersRun: ran,
        mitigations,
        totalLatencyMs: performance.now() - started,
        costIncurred: ran.reduce((sum, layer) => sum + (layer.costIncurred ?? 0), 0),
        claims,
        skippedLayers: [...skipped, ...errored],
        reasons: decision.reasons,
        ...(focused.report ? { evidenceFocus: focused.report } : {}),
      };
      yield* events.publish({
        type: "verification.completed",
        payload: {
          riskLevel,
          layersRun: ran.length,
          passed: result.passed,
          overallConfidence: result.overallConfidence,
          totalLatencyMs: result.totalLatencyMs,
          mitigationsApplied: mitigations.length,
        },
      });
      for (const mitigation of mitigations) {
        yield* events.publish({
          type: "verification.mitigation-applied",
          payload: { action: mitigation.action, reason: mitigation.reason, riskLevel },
        });
      }
      return result;
    }).pipe(
      Effect.tapError((error) =>
        events.publish({
          type: "verification.failed",
          payload: {
            error: error.message,
            totalLatencyMs: performance.now() - started,
            ...(assessedRisk === undefined ? {} : { riskLevel: assessedRisk }),
          },
        }),
      ),
    );
  };

  const runLayer: VerificationServiceShape["runLayer"] = (name, text, context, sources) =>
    Effect.gen(function* () {
      const layer = registry.get(name);
      const request: VerificationRequest = {
        text,
        ...(context !== undefined ? { context } : {}),
        ...(sources !== undefined ? { sources } : {}),
      };
      const { input } = yield* prepareInput(request, settings, focusIndexes);
      if (!layer) {
        const message = isEvidenceLayer(name) ? `layer ${name} is not configured` : noModelReason;
        return yield* Effect.fail(new VerificationError({ message, layer: name }));
      }
      const readiness = layer.readiness(input);
      if (!readiness.ready) {
        return yield* Effect.fail(new VerificationError({ message: readiness.reason, layer: name }));
      }
      return yield* runWithLimit(layer, input, settings.layerTimeouts[name] ?? 30_000);
    });

  return {
    verify,
    runLayer,
    assessRisk: riskAssessor.assess,
    mitigate: mitigator.mitigate,
    calibrateConfidence: calibrator.calibrate,
    cacheStats: () =>
      Effect.sync(() => [
        focusIndexes.stats(),
        ...registry.all.flatMap((layer) => layer.cacheStats?.() ?? []),
      ]),
  } satisfies VerificationServiceShape;
});

export const VerificationServiceLive = Layer.effect(VerificationService, makeVerificationService);
