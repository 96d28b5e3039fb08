import { Context, type Effect } from "effect";
import type { VerificationError, VerificationTimeoutError } from "../../model/errors.js";

export interface ClaimSupport {
  readonly supported: boolean;
  /** Lowest support among the claim's sentences, in [0, 1]. */
  readonly score: number;
  readonly reason: string;
}

/**
 * `verifyClaimRelevance`'s port: does the cited artifact's text support the claim? An error means it could
 * not be judged; the gate then reviews the claim instead of approving it.
 */
export interface ClaimSupportCheckerService {
  readonly check: (
    claim: string,
    artifact: string,
  ) => Effect.Effect<ClaimSupport, VerificationError | VerificationTimeoutError>;
}

export class ClaimSupportChecker extends Context.Tag("veracity/memory/ClaimSupportChecker")<
  ClaimSupportChecker,
  ClaimSupportCheckerService
>() {}
