import { Cause, Effect, Exit } from "effect";

/** Runs an Effect for a Promise caller; a failure rejects with the typed error itself (its `_tag` intact). */
export const runEffect = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect);
  if (Exit.isSuccess(exit)) return exit.value;
  throw Cause.squash(exit.cause);
};
