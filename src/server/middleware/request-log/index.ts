import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { ServerEnv } from "../../env.js";

/**
 * One structured line per request: method, path (no query string), status, duration, the user when
 * authenticated. Headers, cookies and bodies are never logged, so keys cannot leak into logs.
 */
export const logRequests =
  (logger: Logger): MiddlewareHandler<ServerEnv> =>
  async (context, next) => {
    const started = performance.now();
    await next();
    const status = context.res.status;
    // The entry is only built when its level is written (a server logging at warn spares it per request).
    if (!logger.isLevelEnabled(status >= 500 ? "error" : "info")) return;
    const failure = context.get("failure");
    const entry = {
      method: context.req.method,
      path: context.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(context.get("userId") ? { userId: context.get("userId") } : {}),
      ...(failure === undefined ? {} : { error: describeFailure(failure) }),
    };
    if (status >= 500) logger.error(entry, "request failed");
    else logger.info(entry, "request");
  };

const describeFailure = (failure: unknown): string => {
  const tag = (failure as { _tag?: unknown })._tag;
  const name = typeof tag === "string" ? tag : ((failure as Error).name ?? "Error");
  return `${name}: ${String((failure as Error).message ?? failure).slice(0, 300)}`;
};
