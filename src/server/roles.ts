import type { Context, Hono } from "hono";
import { matchedRoutes } from "hono/route";
import type { ServerEnv } from "./env.js";
import { ApiProblem } from "./middleware/problem/index.js";
import type { Role } from "./role.js";

/**
 * Who may do what, from least to most. `agent`: verify, validate, ingest and search memories for its user,
 * never review them (an agent approving its own writes would defeat the review queue). `reviewer`: a person;
 * everything an agent may do, plus the review queue, the review UI and the user's audit trail. `admin`: a
 * reviewer who may also check the whole server's tamper-evident audit log.
 */
export { type Role, roles } from "./role.js";

const rank: Record<Role, number> = { agent: 0, reviewer: 1, admin: 2 };

export const roleAllows = (held: Role, required: Role): boolean => rank[held] >= rank[required];

/** A route's requirement: a role, or `public` (no key at all: health, metrics, the OpenAPI document, sign-in). */
export type RouteAccess = Role | "public";

/**
 * The role every route needs, by method and path as the router knows them. A route missing here is refused
 * (403) for every caller, and `assertEveryRouteHasAccess` stops the server from starting with one.
 */
export const routeAccess: Readonly<Record<string, RouteAccess>> = {
  "GET /healthz": "public",
  "GET /readyz": "public",
  "GET /metrics": "public",
  "GET /openapi.json": "public",
  "GET /": "public",
  "POST /v1/verify": "agent",
  "POST /v1/check": "agent",
  "POST /v1/calculate": "agent",
  "POST /v1/numbers/validate": "agent",
  "POST /v1/citations/verify": "agent",
  "POST /v1/calibrate": "agent",
  "GET /v1/calibration": "reviewer",
  "POST /v1/calibration/outcomes": "reviewer",
  "POST /v1/calibration/refit": "admin",
  "POST /v1/memory/ingest": "agent",
  "POST /v1/sources": "agent",
  "GET /v1/sources/:hash": "agent",
  "POST /v1/memory/search": "agent",
  "GET /v1/review/pending": "reviewer",
  "GET /v1/review/:queueId": "reviewer",
  "POST /v1/review/:queueId/approve": "reviewer",
  "POST /v1/review/:queueId/reject": "reviewer",
  "GET /v1/audit": "reviewer",
  "GET /v1/audit/verify": "admin",
  "GET /ui/login": "public",
  "POST /ui/login": "public",
  "POST /ui/logout": "public",
  "GET /ui": "reviewer",
  "POST /ui/review/:queueId/approve": "reviewer",
  "POST /ui/review/:queueId/reject": "reviewer",
  "GET /ui/playground": "reviewer",
  "POST /ui/playground": "reviewer",
  "GET /ui/audit": "reviewer",
};

/** "an" before a vowel sound (an agent, an admin key), else "a" (a reviewer). */
const article = (word: string): string => (/^[aeiou]/.test(word) ? "an" : "a");

const routeKey = (method: string, path: string) => `${method} ${path.replace(/(.)\/$/, "$1")}`;

/** The requirement of the route that will answer this request (its handler, not a middleware). */
export const accessOf = (context: Context): RouteAccess | "no-route" | undefined => {
  const handler = matchedRoutes(context)
    .filter((route) => route.method !== "ALL")
    .at(-1);
  return handler === undefined ? "no-route" : routeAccess[routeKey(handler.method, handler.path)];
};

/** Refuses (403) a key whose role is below the route's, or a route nobody declared a role for. */
export const requireRouteRole = (context: Context<ServerEnv>): void => {
  const access = accessOf(context);
  // No handler: the router answers 404 after authentication, as for any unknown path.
  if (access === "public" || access === "no-route") return;
  const held = context.get("role");
  if (access === undefined)
    throw new ApiProblem(403, "route-without-role", "this route declares no role and is refused to everyone");
  if (!roleAllows(held, access))
    throw new ApiProblem(
      403,
      "forbidden-role",
      `this needs ${article(access)} ${access} key; the key presented is ${article(held)} ${held} key`,
    );
};

/** Every handler of the app (not middleware) must declare its access; a server with one that does not won't start. */
export const assertEveryRouteHasAccess = (app: Hono<ServerEnv>): void => {
  const missing = app.routes
    .filter((route) => route.method !== "ALL")
    .map((route) => routeKey(route.method, route.path))
    .filter((key) => routeAccess[key] === undefined);
  if (missing.length > 0)
    throw new Error(`routes without a declared role (add them to routeAccess): ${missing.join(", ")}`);
};
