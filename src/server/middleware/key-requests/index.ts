import type { MiddlewareHandler } from "hono";
import type { SharedBudget } from "../../../model/shared-budget.js";
import type { ServerEnv } from "../../env.js";
import { ApiProblem } from "../problem/index.js";

/**
 * Holds a slot of the request's key in `slots` while it is answered; a key with every slot held is answered
 * 429 `key-busy` (with `retry-after`) before its body is read. Placed after authentication and the rate limit:
 * the rate limit counts a key's requests over a minute, this how many it has at once, which is what decides how
 * long everyone else's requests wait behind its own.
 */
export const limitKeyRequests =
  (slots: SharedBudget): MiddlewareHandler<ServerEnv> =>
  async (context, next) => {
    const reservation = slots.reserve(1, context.get("keyHash"));
    if (!reservation.held)
      throw new ApiProblem(
        429,
        "key-busy",
        `one key has at most ${slots.limitPerHolder} requests in flight at once; try again when one has been answered`,
        { "retry-after": "1" },
      );
    try {
      await next();
    } finally {
      reservation.release();
    }
  };
