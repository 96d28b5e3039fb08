import type { MiddlewareHandler } from "hono";
import { ApiProblem } from "../problem/index.js";

/**
 * Answers 503 `request-timeout` when the handler has not finished within `timeoutMs`. The handler's own work
 * is bounded separately (verification budgets); this bounds what the client waits for.
 */
export const limitDuration =
  (timeoutMs: number): MiddlewareHandler =>
  async (_context, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ApiProblem(503, "request-timeout", `the request took longer than ${timeoutMs} ms`, {
              "retry-after": "1",
            }),
          ),
        timeoutMs,
      );
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
