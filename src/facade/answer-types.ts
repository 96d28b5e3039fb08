import type { VerificationSummary } from "../audit/entries-for.js";

export interface AnswerOptions {
  /** Keep each layer's own claim findings in `layersRun` (the top-level `claims` merge them anyway). */
  readonly layerClaims: boolean;
}

/**
 * A verification ready to hand out over HTTP: its JSON as UTF-8 bytes, and what the audit trail and the metrics
 * need of it. Built where the verification ran, so a worker thread hands over the bytes (moved, not copied) and
 * a small summary instead of the whole result, and the server's event loop neither copies, hashes, serializes
 * nor encodes the claims: it writes the bytes to the socket as they are.
 */
export interface PreparedAnswer {
  /** The result's JSON as sent, in UTF-8: each layer's claims only with `layerClaims`. */
  readonly body: Uint8Array<ArrayBuffer>;
  readonly summary: VerificationSummary;
  /** `verificationOutputHash` of the whole result. */
  readonly outputHash: string;
}
