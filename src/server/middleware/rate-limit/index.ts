import type { MiddlewareHandler } from "hono";
import type { SqlClientService } from "../../../storage/sql-client.js";
import type { ServerEnv } from "../../env.js";
import { runEffect } from "../../run-effect.js";
import { ApiProblem } from "../problem/index.js";
import { makeRateReservations, type RateDecision } from "./reservations.js";

export interface RateLimit {
  /** Requests one API key may make per window, counted across every instance sharing the database. */
  readonly requests: number;
  readonly windowMs: number;
}

export const defaultRateLimit: RateLimit = { requests: 1_200, windowMs: 60_000 };

/** Answers 429 with `retry-after` once the key has used its window (counted in SQL, see reservations.ts). */
export const limitRate = (sql: SqlClientService, limit: RateLimit): MiddlewareHandler<ServerEnv> => {
  const reservations = makeRateReservations(sql, limit);
  return async (context, next) => {
    const keyHash = context.get("keyHash");
    const now = Date.now();
    const decision: RateDecision =
      reservations.takeReserved(keyHash, now) ?? (await runEffect(reservations.take(keyHash, now)));
    context.header("ratelimit-limit", String(limit.requests));
    if (!decision.allowed)
      throw new ApiProblem(
        429,
        "rate-limited",
        `at most ${limit.requests} requests per ${limit.windowMs} ms per key`,
        {
          "retry-after": String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))),
        },
      );
    await next();
  };
};
