import { FiberRef } from "effect";

/**
 * The user whose stored facts a verification may read, for a fact memory shared by many users (a server's
 * memory store): set for one verification by the surface that authenticated the caller, read by that fact
 * memory's search. Unset, such a fact memory holds no facts, so no user's memories confirm another's answer.
 */
export const FactMemoryUser: FiberRef.FiberRef<string | undefined> = FiberRef.unsafeMake<string | undefined>(
  undefined,
);
