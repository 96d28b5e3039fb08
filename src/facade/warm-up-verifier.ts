import { errorMessage } from "../model/error-message.js";
import { madeUpPayloads } from "../verification/warm-up/made-up-payloads.js";
import { createVerifier, type Verifier, type VerifierConfig } from "./create-verifier.js";
import { prepareAnswer } from "./prepared-answer.js";

/** How long a verifier's warm-up may run: it stops at whichever bound it reaches first. */
export interface VerificationWarmUpOptions {
  /** Most verifications (default 400). */
  readonly maxVerifications?: number;
  /** Most milliseconds, checked between verifications (default 3,000). */
  readonly maxMs?: number;
  /**
   * Ends the warm-up between two verifications once aborted: a process that serves while it warms up (an MCP
   * server over stdio) stops when real work arrives rather than compete with it.
   */
  readonly signal?: AbortSignal;
}

/** What a warm-up did: the verifications it ran, how long it took, and the error that ended it, if one did. */
export interface VerificationWarmUpReport {
  /** Verifications run to their end. */
  readonly verifications: number;
  /** Wall time of the warm-up, in milliseconds. */
  readonly ms: number;
  /** The message of the error that ended it early, if one did. */
  readonly stoppedBy?: string;
}

/** Resolves after the event loop has run its pending input and timers. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `warmUpVerifier`'s bounds when none are given: 400 verifications or 3 s, whichever comes first. */
export const defaultVerificationWarmUp = { maxVerifications: 400, maxMs: 3_000 } as const;

/**
 * Verifies made-up answers against made-up sources (`madeUpPayloads`, each one new, so no cache answers it) and
 * prepares each answer as the server sends it, until a bound is reached. A new process runs the offline layers'
 * code slowly at first: V8 compiles each function for speed only after it has run many times, and a server's
 * first requests paid for that (the first real request after start took 0.5-0.8 s, and the first hundred's p99
 * was 77-152 ms against 34-67 ms for the hundred after them; docs/BENCHMARKS.md, stop 42). Give it a verifier of its own, not one whose events reach
 * metrics or an audit trail: these verifications are nobody's. It never throws: an error ends it and is reported.
 */
export const warmUpVerifier = async (
  verifier: Pick<Verifier, "verify">,
  options: VerificationWarmUpOptions = {},
): Promise<VerificationWarmUpReport> => {
  const maxVerifications = options.maxVerifications ?? defaultVerificationWarmUp.maxVerifications;
  const maxMs = options.maxMs ?? defaultVerificationWarmUp.maxMs;
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let verifications = 0;
  while (verifications < maxVerifications && options.signal?.aborted !== true && elapsed() < maxMs) {
    const [payload] = madeUpPayloads(1, verifications + 1);
    try {
      prepareAnswer(await verifier.verify(payload as NonNullable<typeof payload>), { layerClaims: false });
    } catch (error) {
      return {
        verifications,
        ms: Math.round(elapsed()),
        stoppedBy: errorMessage(error),
      };
    }
    verifications += 1;
    // A verification can settle without the event loop turning (its steps are promise callbacks), so a loop of
    // them would keep a process that serves meanwhile from reading its input until the loop ends: one turn
    // of the loop between two verifications lets a request in, and lets it abort the rest.
    await nextTurn();
  }
  return { verifications, ms: Math.round(elapsed()) };
};

/**
 * `warmUpVerifier` on a verifier of the warm-up's own, made with `config` (the serving verifier's settings and
 * calibration) and closed afterwards: its made-up verifications reach no subscriber, metric or audit trail of
 * the verifiers that serve, and V8 compiles the code they all run.
 */
export const warmUpOwnVerifier = async (
  config: VerifierConfig,
  options: VerificationWarmUpOptions = {},
): Promise<VerificationWarmUpReport> => {
  const own = createVerifier(config);
  try {
    return await warmUpVerifier(own, options);
  } finally {
    await own.close();
  }
};
