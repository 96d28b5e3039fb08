import { Effect } from "effect";
import { Hono } from "hono";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { runEffect } from "../run-effect.js";

/** `/healthz`: the process answers. `/readyz`: it accepts traffic and its database answers. */
export const healthRoutes = (
  deps: ServerDeps,
  metrics: () => Promise<{ readonly contentType: string; readonly body: string }>,
) =>
  new Hono<ServerEnv>()
    .get("/healthz", (context) => context.json({ status: "ok" }))
    .get("/readyz", async (context) => {
      if (deps.isAccepting && !deps.isAccepting()) return context.json({ status: "shutting-down" }, 503);
      const database = await runEffect(
        deps.sql.query("SELECT 1").pipe(
          Effect.timeout("2 seconds"),
          Effect.as("ok" as const),
          Effect.orElseSucceed(() => "unavailable" as const),
        ),
      );
      return context.json(
        { status: database === "ok" ? "ready" : "not-ready", database },
        database === "ok" ? 200 : 503,
      );
    })
    .get("/metrics", async (context) => {
      await deps
        .refreshMetrics?.()
        .catch((error: unknown) => deps.logger.warn({ error: String(error) }, "metrics refresh failed"));
      const { contentType, body } = await metrics();
      return context.body(body, 200, { "content-type": contentType });
    });
