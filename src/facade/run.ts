import { Cause, type Effect, Exit, type ManagedRuntime } from "effect";

/**
 * Runs an effect and returns its value, or throws its typed failure itself (a VerificationError,
 * InputError...), not Effect's FiberFailure wrapper, so Promise users can `instanceof` and read `_tag`.
 */
export const runOrThrow = async <A, E, R>(
  runtime: ManagedRuntime.ManagedRuntime<R, never>,
  effect: Effect.Effect<A, E, R>,
): Promise<A> => {
  const exit = await runtime.runPromiseExit(effect);
  if (Exit.isSuccess(exit)) return exit.value;
  throw Cause.squash(exit.cause);
};
