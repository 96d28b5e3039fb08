import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { Verifier, VerifierTools } from "./create-verifier.js";

/**
 * `verify` on behalf of an authenticated user where the verifier can (`VerifierTools.verifyFor`: a fact memory
 * shared by many users then reads that user's facts only), else a plain `verify` (a worker pool reads no fact
 * memory). The user must come from authentication, never from the request.
 */
export const verifyAs = (
  verifier: Verifier,
  userId: string,
  request: VerificationRequest,
): Promise<VerificationResult> => {
  const verifyFor = (verifier as Verifier & Partial<VerifierTools>).verifyFor;
  return verifyFor === undefined ? verifier.verify(request) : verifyFor(userId, request);
};
