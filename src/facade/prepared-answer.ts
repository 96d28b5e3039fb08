import { verificationOutputHash } from "../audit/entries-for.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { AnswerOptions, PreparedAnswer } from "./answer-types.js";
import type { Verifier } from "./create-verifier.js";

export type { AnswerOptions, PreparedAnswer } from "./answer-types.js";

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
