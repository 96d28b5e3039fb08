import type { MiddlewareHandler } from "hono";
import { type ByteBudget, bodyBudgetRefusal, bodyBytesToReserve } from "../../../model/byte-budget.js";
import type { ServerEnv } from "../../env.js";
import { keyBusy } from "../key-requests/index.js";
import { ApiProblem } from "../problem/index.js";

/**
 * Holds a request's body bytes in `budget` (the server's total across connections) while it is answered;
 * answers 503 `server-busy` (with `retry-after`) when they do not fit, and 429 `key-busy` when they would take
 * the request's key past its share. Placed after authentication and the rate limit, so that only a known key's
 * admitted requests take a share: a client without a key is answered before its body is read.
 */
export const holdBodyBudget =
  (budget: ByteBudget, maxBodyBytes: number): MiddlewareHandler<ServerEnv> =>
  async (context, next) => {
    const bytes = bodyBytesToReserve(
      context.req.header("content-length"),
      context.req.header("transfer-encoding"),
      maxBodyBytes,
    );
    if (bytes === 0) return next();
    const reservation = budget.reserve(bytes, context.get("keyHash"));
    if (!reservation.held) {
      const detail = bodyBudgetRefusal(budget, reservation.full);
      throw reservation.full === "holder"
        ? keyBusy(detail)
        : new ApiProblem(503, "server-busy", detail, { "retry-after": "1" });
    }
    // Given back when the handler has finished, not when the answer is sent: a request answered early (its
    // deadline passed) still holds what it has read until its read ends (the body is complete or the
    // connection closed).
    try {
      await next();
    } finally {
      reservation.release();
    }
  };
