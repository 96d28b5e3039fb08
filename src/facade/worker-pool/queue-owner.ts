import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whose verification calls a worker pool is given, for taking them in turn (fair-queue.ts): a server names
 * the API key each request came with, so one key's flood of requests waits behind itself, not in front of
 * every other key's. Carried by the asynchronous context (`AsyncLocalStorage`) rather than by each call, so
 * the code between a request and its pool calls (body decoding, the verifier's facade) passes nothing on.
 */
const owners = new AsyncLocalStorage<string>();

/** Runs `run`, and everything it starts, with its pool calls taken in turn as `owner`'s. */
export const runAsQueueOwner = <A>(owner: string, run: () => A): A => owners.run(owner, run);

/** The owner whose turn a pool call made now waits for; calls made outside `runAsQueueOwner` share one, "". */
export const currentQueueOwner = (): string => owners.getStore() ?? "";
