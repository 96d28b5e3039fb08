import { Effect, Either } from "effect";
import type { ChatMessage } from "../llm/messages.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import { type CorrectionLoopOptions, type CorrectionOutcome, correctionLoopWith } from "./loop.js";

/** The correction loop's parts as plain async functions. */
export interface CorrectAnswerParts {
  /** Writes the next answer for the conversation so far (the prompt, then the failures sent back). */
  readonly generate: (messages: readonly ChatMessage[]) => Promise<string>;
  /** Verifies an answer: the `verify` of `createVerifier`, or any function of that shape. */
  readonly verify: (request: VerificationRequest) => Promise<VerificationResult>;
}

const lift =
  <A, B>(work: (input: A) => Promise<B>) =>
  (input: A) =>
    Effect.tryPromise({ try: () => work(input), catch: (error) => error });

/**
 * The correction loop without Effect: generate, verify, send the model the failures with their evidence,
 * regenerate, at most `maxIterations` times. Resolves with the outcome (passed, corrected, or exhausted with
 * its fallback); rejects with the error `generate` or `verify` threw, or an `InputError` for bad options. An
 * outage is never taken as a passing answer.
 */
export const correctAnswer = async (
  options: CorrectionLoopOptions,
  parts: CorrectAnswerParts,
): Promise<CorrectionOutcome> => {
  const outcome = await Effect.runPromise(
    Effect.either(
      correctionLoopWith<unknown>(options, { generate: lift(parts.generate), verify: lift(parts.verify) }),
    ),
  );
  if (Either.isLeft(outcome)) throw outcome.left;
  return outcome.right;
};
