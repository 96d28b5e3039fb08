import type { MiddlewareHandler } from "hono";
import { runAsQueueOwner } from "../../../facade/worker-pool/queue-owner.js";
import { requestSlotsRefusal, type SharedBudget } from "../../../model/shared-budget.js";
import type { ServerEnv } from "../../env.js";
import { ApiProblem } from "../problem/index.js";

/** 429 `key-busy`: the request's key holds its share of something the server holds for every key. */
export const keyBusy = (detail: string): ApiProblem =>
  new ApiProblem(429, "key-busy", detail, { "retry-after": "1" });

/**
 * Holds a slot of the request's key in `slots` while it is answered; a key with every slot held is answered
 * 429 `key-busy` (with `retry-after`) before its body is read. Placed after authentication and the rate limit:
 * the rate limit counts a key's requests over a minute, this how many it has at once. Its requests' calls to the
 * verification workers are taken as the key's, in turn with other keys' (`runAsQueueOwner`).
 */
export const limitKeyRequests =
  (slots: SharedBudget): MiddlewareHandler<ServerEnv> =>
  async (context, next) => {
    const reservation = slots.reserve(1, context.get("keyHash"));
    if (!reservation.held) throw keyBusy(requestSlotsRefusal(slots));
    try {
      // The verification workers take each key's calls in turn (queue-owner.ts): this key's requests in flight
      // wait behind each other, not in front of every other key's.
      await runAsQueueOwner(context.get("keyHash"), next);
    } finally {
      reservation.release();
    }
  };
