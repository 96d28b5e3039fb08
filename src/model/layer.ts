import type { Effect } from "effect";
import type { CacheStats } from "./cache-stats.js";
import type { ClaimKind } from "./claim.js";
import type { VerificationError, VerificationTimeoutError } from "./errors.js";
import type { LayerName } from "./layer-name.js";
import type { LayerResult } from "./layer-result.js";
import type { Span } from "./span.js";

/** A claim of the text under test, with offsets into that text. */
export interface Claim {
  /** The claim's position among the text's claims, in text order, from 0. */
  readonly index: number;
  /** The claim's text, as it stands in the text under test. */
  readonly text: string;
  /** Where the claim stands in the text under test. */
  readonly span: Span;
  /** What the claim asserts: `factual`, `opinion`, `inference` or `uncertain` (hedged, or a question). */
  readonly kind: ClaimKind;
}

/** One piece of evidence a layer may check against: each request source, then the request context. */
export interface EvidenceSource {
  /** The position in the evidence list, which `Evidence.source` of a finding refers to. */
  readonly index: number;
  /** Whether this is one of the request's `sources` or its `context`. */
  readonly origin: "source" | "context";
  /** The evidence text, as the request gave it. */
  readonly text: string;
}

/** How many characters a list of evidence (or any texts) holds in all: what the size limits and caches count. */
export const evidenceCharacters = (evidence: readonly { readonly text: string }[]): number => {
  let characters = 0;
  for (const source of evidence) characters += source.text.length;
  return characters;
};

/** What every layer receives: the request, already segmented and normalized once by the service. */
export interface LayerInput {
  /** The text under test; every span of the claims and findings is an offset into it. */
  readonly text: string;
  /** The text's claims, in text order (at most the settings' `maxClaims`). */
  readonly claims: readonly Claim[];
  /** What to check the claims against: the request's sources in order, then its context. */
  readonly evidence: readonly EvidenceSource[];
  /** The request's context (conversation or retrieved passages), when given. */
  readonly context?: string;
  /** The user's question, when the request gave it. */
  readonly question?: string;
  /** Remaining model budget for this request, when one was given. */
  readonly maxCost?: number;
}

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

/**
 * A verification layer: one check, one module. `readiness` says, before any work, whether the layer can
 * run on this input (no sources, no model...); a layer that cannot run is reported as skipped with the
 * reason and never counts as passed. `run` returns a verdict as a value; an outage is a typed error.
 */
export interface VerificationLayer {
  /** The layer's name, as results, settings and risk profiles refer to it. */
  readonly name: LayerName;
  /** `evidence` for an offline check against sources or a store; `model` for a check that asks a model. */
  readonly kind: "evidence" | "model";
  /**
   * True for layers whose work is synchronous CPU work (offline grounding, numbers): a timer cannot preempt
   * them, so the service does not race them against one; their time is bounded by the input size limits.
   */
  readonly synchronous?: boolean;
  /** Whether the layer can run on this input, and if not why; called before `run`, and must not do the work. */
  readonly readiness: (input: LayerInput) => Readiness;
  /** Runs the check on the input: the layer's result, or a typed error when it could not complete. */
  readonly run: (
    input: LayerInput,
  ) => Effect.Effect<LayerResult, VerificationError | VerificationTimeoutError>;
  /**
   * Revises this layer's result once every layer of the verification has run, in light of the others' results
   * (before calibration and the merge): the grounding layer accepts the numbers the numbers layer traced to
   * figures of the sources. Must not fail; returns `own` when nothing changes.
   */
  readonly reconcile?: (input: LayerInput, own: LayerResult, others: readonly LayerResult[]) => LayerResult;
  /** What the layer's caches (of evidence it has read) did and hold; absent for a layer that keeps none. */
  readonly cacheStats?: () => readonly CacheStats[];
}

export const ready: Readiness = { ready: true };
export const notReady = (reason: string): Readiness => ({ ready: false, reason });
