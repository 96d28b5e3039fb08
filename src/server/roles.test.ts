import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerApp } from "./app.js";
import type { ServerDeps } from "./deps.js";
import { type Role, roleAllows, roles, routeAccess } from "./roles.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";

let server: TestServer;
const keys = {} as Record<Role, string>;

/** Every handler the app serves, read from the Hono router itself: a route added later is in this list. */
const served = [
  ...new Set(
    createServerApp({} as ServerDeps)
      .routes.filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, "$1")}`),
  ),
];

beforeAll(async () => {
  server = await startTestServer();
  for (const role of roles) keys[role] = await server.createApiKey("alice", role);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

/** A request to the route as the given role: bearer key for the API, session cookie for the UI. */
const request = (route: string, role: Role) => {
  const [method = "GET", pattern = "/"] = route.split(" ");
  const path = pattern.replace(/:(\w+)/g, "00000000-0000-4000-8000-000000000000");
  const ui = path.startsWith("/ui");
  const headers: Record<string, string> = ui
    ? { cookie: `veracity_key=${keys[role]}`, origin: server.url }
    : { authorization: `Bearer ${keys[role]}` };
  if (method === "POST")
    headers["content-type"] = ui ? "application/x-www-form-urlencoded" : "application/json";
  return fetch(`${server.url}${path}`, {
    method,
    headers,
    redirect: "manual",
    ...(method === "POST" ? { body: ui ? "reason=no" : "{}" } : {}),
  });
};

describe("route-by-role matrix", () => {
  it("declares a role (or public) for every route the app serves, and nothing it does not serve", () => {
    expect(served.length).toBeGreaterThan(20);
    expect(served.filter((route) => routeAccess[route] === undefined)).toEqual([]);
    expect(Object.keys(routeAccess).filter((route) => !served.includes(route))).toEqual([]);
  });

  it("refuses every key below a route's role with 403, and lets every other key through", async () => {
    const outcomes: string[] = [];
    for (const route of served) {
      const access = routeAccess[route];
      if (access === undefined || access === "public") continue;
      for (const role of roles) {
        const response = await request(route, role);
        await response.body?.cancel();
        const refused = response.status === 403 || response.status === 401;
        outcomes.push(
          `${route} as ${role}: ${roleAllows(role, access) === !refused ? "ok" : response.status}`,
        );
      }
    }
    expect(outcomes.filter((outcome) => !outcome.endsWith(": ok"))).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(40);
  });
});

describe("agents cannot review", () => {
  const queue = async (content: string) => {
    const response = await server.call("POST", "/v1/memory/ingest", {
      key: keys.agent,
      body: { content, memoryType: "fact", source: "conversation" },
    });
    expect(response.status).toBe(202);
    return response.body.pending.queueId as string;
  };

  it("an agent key gets 403 on approve and reject of a real queued item, which stays pending", async () => {
    const queueId = await queue("The nightly backup runs at 02:00 UTC");
    const approve = await server.call("POST", `/v1/review/${queueId}/approve`, { key: keys.agent });
    const reject = await server.call("POST", `/v1/review/${queueId}/reject`, {
      key: keys.agent,
      body: { reason: "mine" },
    });
    for (const answer of [approve, reject]) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get("content-type")).toMatch(/application\/problem\+json/);
      expect(answer.body.code).toBe("forbidden-role");
    }
    const item = await server.call("GET", `/v1/review/${queueId}`, { key: keys.reviewer });
    expect(item.status).toBe(200);
    const approved = await server.call("POST", `/v1/review/${queueId}/approve`, { key: keys.reviewer });
    expect(approved.status).toBe(200);
  });

  it("an agent key cannot sign in to the review UI, nor approve through it with the cookie", async () => {
    const login = await fetch(`${server.url}/ui/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ key: keys.agent }).toString(),
    });
    expect(login.status).toBe(403);
    expect(login.headers.get("set-cookie")).toBeNull();
    const queueId = await queue("The cache keeps entries for ten minutes");
    const approve = await request(`POST /ui/review/${queueId}/approve`, "agent");
    expect(approve.status).toBe(403);
    const item = await server.call("GET", `/v1/review/${queueId}`, { key: keys.reviewer });
    expect(item.body.status ?? "pending").toBe("pending");
  });

  it("an agent's memory that names the user as its source is judged with the agent's trust", async () => {
    const claim = { content: "Our staging database runs PostgreSQL 16", memoryType: "fact" };
    for (const source of ["user", "documentation", "adr", "commit", "manual"]) {
      const answer = await server.call("POST", "/v1/memory/ingest", {
        key: keys.agent,
        body: { ...claim, content: `${claim.content} (${source})`, source },
      });
      expect(answer.status).toBe(202);
      const item = await server.call("GET", `/v1/review/${answer.body.pending.queueId}`, {
        key: keys.reviewer,
      });
      expect(item.body.source).toBe("agent");
      expect(item.body.validation.reason).toMatch(/AI synthesis/);
      expect(item.body.evidence.metadata.claimedSource).toBe(source);
    }
    const person = await server.call("POST", "/v1/memory/ingest", {
      key: keys.reviewer,
      body: { content: "I prefer answers in metric units", memoryType: "preference", source: "user" },
    });
    expect(person.status).toBe(201);
  });
});
