import type { MiddlewareHandler } from "hono";
import type { SharedBudget } from "../../../model/shared-budget.js";
import type { ServerEnv } from "../../env.js";
import { ApiProblem } from "../problem/index.js";

/** 429 `key-busy`: the request's key holds its share of something the server holds for every key. */
export const keyBusy = (detail: string): ApiProblem =>
  new ApiProblem(429, "key-busy", `${detail}; try again when one has been answered`, { "retry-after": "1" });

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
      throw keyBusy(`one key has at most ${slots.limitPerHolder} requests in flight at once`);
    try {
      await next();
    } finally {
      reservation.release();
    }
  };
