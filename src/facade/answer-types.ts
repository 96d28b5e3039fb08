import type { VerificationSummary } from "../audit/entries-for.js";

export interface AnswerOptions {
  /** Keep each layer's own claim findings in `layersRun` (the top-level `claims` merge them anyway). */
  readonly layerClaims: boolean;
}

/**
 * A verification ready to hand out over HTTP: its JSON, and what the audit trail and the metrics need of it.
 * Built where the verification ran, so a worker thread sends a string and a small summary instead of the
 * whole result, and the server's event loop neither copies, hashes nor serializes the claims.
 */
export interface PreparedAnswer {
  /** The result as sent: each layer's claims only with `layerClaims`. */
  readonly body: string;
  readonly summary: VerificationSummary;
  /** `verificationOutputHash` of the whole result. */
  readonly outputHash: string;
}
