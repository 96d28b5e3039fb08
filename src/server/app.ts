import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { bodyBudgetOf } from "../model/byte-budget.js";
import { requestSlotsOf } from "../model/shared-budget.js";
import { makeServerAuditTrail } from "./audit-trail.js";
import { defaultServerLimits, type ServerDeps } from "./deps.js";
import type { ServerEnv } from "./env.js";
import { makeHttpMetrics } from "./http-metrics.js";
import { authenticate } from "./middleware/auth/index.js";
import { holdBodyBudget } from "./middleware/body-budget/index.js";
import { limitBody } from "./middleware/body-limit/index.js";
import { limitKeyRequests } from "./middleware/key-requests/index.js";
import { problemErrorHandler, problemNotFound } from "./middleware/problem/index.js";
import { limitRate } from "./middleware/rate-limit/index.js";
import { logRequests } from "./middleware/request-log/index.js";
import { limitDuration } from "./middleware/timeout/index.js";
import { buildOpenApiDocument } from "./openapi.js";
import { assertEveryRouteHasAccess } from "./roles.js";
import { auditRoutes } from "./routes/audit.js";
import { calibrationRoutes } from "./routes/calibrate.js";
import { citationRoutes } from "./routes/citations.js";
import { healthRoutes } from "./routes/health.js";
import { memoryRoutes } from "./routes/memory.js";
import { numberRoutes } from "./routes/numbers.js";
import { reviewRoutes } from "./routes/review.js";
import { sourceRoutes } from "./routes/sources.js";
import { verificationRoutes } from "./routes/verify.js";
import { uiRoutes } from "./ui/routes.js";

/**
 * The HTTP application: health and metrics, the OpenAPI document, the `/v1` API (bearer API keys, per-key rate
 * limit in SQL) and the review UI under `/ui` (the same keys, kept in an HttpOnly cookie). Every error is a
 * problem+json answer with a stable code.
 */
export const createServerApp = (given: ServerDeps): Hono<ServerEnv> => {
  const deps: ServerDeps =
    given.auditTrail === undefined ? { ...given, auditTrail: makeServerAuditTrail(given) } : given;
  const limits = { ...defaultServerLimits, ...deps.limits };
  const bodyBudget = bodyBudgetOf(limits, limits.maxBodyBytes);
  // What an admitted request holds while it is answered: a slot of its key's, then its body's bytes.
  const holds = [
    limitKeyRequests(requestSlotsOf(limits.maxRequestsInFlightPerKey)),
    holdBodyBudget(bodyBudget, limits.maxBodyBytes),
  ];
  const metrics = makeHttpMetrics(deps.metricsRegistry, bodyBudget.reserved);
  const openApi = JSON.stringify(buildOpenApiDocument(deps.version));

  const api = new Hono<ServerEnv>();
  api.use("*", authenticate(deps.sql, "bearer"));
  api.use("*", limitRate(deps.sql, limits.rateLimit));
  api.use("*", ...holds);
  api.route("/", verificationRoutes(deps));
  api.route("/", numberRoutes(deps));
  api.route("/", citationRoutes(deps));
  api.route("/", calibrationRoutes(deps));
  api.route("/", memoryRoutes(deps));
  api.route("/", sourceRoutes(deps));
  api.route("/", reviewRoutes(deps));
  api.route("/", auditRoutes(deps));

  const app = new Hono<ServerEnv>();
  app.onError(problemErrorHandler);
  app.notFound(problemNotFound);
  app.use("*", logRequests(deps.logger));
  app.use("*", metrics.record);
  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    }),
  );
  // Once shutdown has begun, every answer tells a keep-alive client to reconnect elsewhere.
  app.use("*", async (context, next) => {
    await next();
    if (deps.isAccepting !== undefined && !deps.isAccepting()) context.header("connection", "close");
  });
  app.use("*", limitDuration(limits.requestTimeoutMs));
  app.use("*", limitBody(limits.maxBodyBytes));
  const readJsonOffThread = deps.readJsonOffThread;
  if (readJsonOffThread !== undefined)
    app.use("*", async (context, next) => {
      context.set("readJsonOffThread", readJsonOffThread);
      await next();
    });
  app.route("/", healthRoutes(deps, metrics.render));
  app.get("/openapi.json", (context) => context.body(openApi, 200, { "content-type": "application/json" }));
  app.route("/v1", api);
  app.route("/ui", uiRoutes(deps, limits.rateLimit, holds));
  app.get("/", (context) => context.redirect("/ui"));
  assertEveryRouteHasAccess(app);
  return app;
};
