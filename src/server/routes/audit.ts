import { Hono } from "hono";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ApiProblem } from "../middleware/problem/index.js";
import { runEffect } from "../run-effect.js";

/**
 * `GET /v1/audit`: the caller's review trail from the memory queue (enqueue, approve, reject...).
 * `GET /v1/audit/verify`: re-hashes the tamper-evident audit log and reports every broken link.
 */
export const auditRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .get("/audit", async (context) => {
      const entries = await deps.memory.audit(context.get("userId"), 200);
      return context.json({ entries });
    })
    .get("/audit/verify", async (context) => {
      if (deps.auditLog === undefined)
        throw new ApiProblem(503, "not-configured", "this server has no audit log");
      return context.json(await runEffect(deps.auditLog.verify));
    });
