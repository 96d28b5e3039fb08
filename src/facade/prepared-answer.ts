import { verificationOutputHash } from "../audit/entries-for.js";
import { layersWithoutClaims } from "../model/lean-result.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { AnswerOptions, PreparedAnswer } from "./answer-types.js";
import type { Verifier } from "./create-verifier.js";

export type { AnswerOptions, PreparedAnswer } from "./answer-types.js";

const utf8 = new TextEncoder();

export const prepareAnswer = (result: VerificationResult, options: AnswerOptions): PreparedAnswer => {
  const layersRun = layersWithoutClaims(result);
  const { claims: _claims, ...rest } = result;
  return {
    // Encoded here, so a worker thread can move the bytes to the server's thread instead of copying a string
    // that the server would then encode again for the socket.
    body: utf8.encode(JSON.stringify(options.layerClaims ? result : { ...result, layersRun })),
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
