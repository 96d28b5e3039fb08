import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiProblem } from "../problem/index.js";
import { requireSameOrigin } from "./index.js";

const app = new Hono();
app.use("*", requireSameOrigin());
app.post("/form", (context) => context.text("done"));
app.onError((error, context) =>
  error instanceof ApiProblem ? context.text(error.code, 403) : context.text("boom", 500),
);

const post = (headers: Record<string, string>) =>
  app.request("http://127.0.0.1:8080/form", { method: "POST", headers });

describe("requireSameOrigin", () => {
  it.each([
    ["the page's own form", { "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:8080" }, 200],
    [
      "its own form under no-referrer (Origin: null)",
      { "sec-fetch-site": "same-origin", origin: "null" },
      200,
    ],
    ["a typed address (no initiator)", { "sec-fetch-site": "none" }, 200],
    ["another site", { "sec-fetch-site": "cross-site", origin: "https://evil.example" }, 403],
    ["a sandboxed frame elsewhere", { "sec-fetch-site": "cross-site", origin: "null" }, 403],
    ["an old browser from another origin", { origin: "https://evil.example" }, 403],
    ["an old browser sending Origin: null", { origin: "null" }, 403],
    [
      "a same-origin claim with a foreign Origin",
      { "sec-fetch-site": "same-origin", origin: "https://evil.example" },
      403,
    ],
  ])("%s: %i", async (_, headers, status) => {
    expect((await post(headers)).status).toBe(status);
  });
});
