import { type VerificationSummary, verificationOutputHash } from "../audit/entries-for.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { Verifier } from "./create-verifier.js";

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

const withoutLayerClaims = (result: VerificationResult) =>
  result.layersRun.map(({ claims: _claims, ...layer }) => layer);

export const prepareAnswer = (result: VerificationResult, options: AnswerOptions): PreparedAnswer => {
  const layersRun = withoutLayerClaims(result);
  const { claims: _claims, ...rest } = result;
  return {
    body: JSON.stringify(options.layerClaims ? result : { ...result, layersRun }),
    summary: { ...rest, layersRun },
    outputHash: verificationOutputHash(result),
  };
};

/** The verifier's own `verifyPrepared` (a worker pool prepares in the worker), else `verify` and `prepareAnswer` here. */
export const verifyPrepared = (
  verifier: Verifier,
  request: VerificationRequest,
  options: AnswerOptions,
): Promise<PreparedAnswer> =>
  verifier.verifyPrepared?.(request, options) ??
  verifier.verify(request).then((result) => prepareAnswer(result, options));
