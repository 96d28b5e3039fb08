import type { Effect } from "effect";
import type { ClaimKind } from "../model/claim.js";
import type { VerificationError, VerificationTimeoutError } from "../model/errors.js";
import type { LayerName } from "../model/layer-name.js";
import type { LayerResult } from "../model/layer-result.js";
import type { Span } from "../model/span.js";

/** A claim of the text under test, with offsets into that text. */
export interface Claim {
  readonly index: number;
  readonly text: string;
  readonly span: Span;
  readonly kind: ClaimKind;
}

/** One piece of evidence a layer may check against: each request source, then the request context. */
export interface EvidenceSource {
  readonly index: number;
  readonly origin: "source" | "context";
  readonly text: string;
}

/** What every layer receives: the request, already segmented and normalized once by the service. */
export interface LayerInput {
  readonly text: string;
  readonly claims: readonly Claim[];
  readonly evidence: readonly EvidenceSource[];
  readonly context?: string;
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
  readonly name: LayerName;
  readonly kind: "evidence" | "model";
  /**
   * True for layers whose work is synchronous CPU work (offline grounding, numbers): a timer cannot preempt
   * them, so the service does not race them against one; their time is bounded by the input size limits.
   */
  readonly synchronous?: boolean;
  readonly readiness: (input: LayerInput) => Readiness;
  readonly run: (
    input: LayerInput,
  ) => Effect.Effect<LayerResult, VerificationError | VerificationTimeoutError>;
  /**
   * Revises this layer's result once every layer of the verification has run, in light of the others' results
   * (before calibration and the merge): the grounding layer accepts the numbers the numbers layer traced to
   * figures of the sources. Must not fail; returns `own` when nothing changes.
   */
  readonly reconcile?: (input: LayerInput, own: LayerResult, others: readonly LayerResult[]) => LayerResult;
}

export const ready: Readiness = { ready: true };
export const notReady = (reason: string): Readiness => ({ ready: false, reason });
