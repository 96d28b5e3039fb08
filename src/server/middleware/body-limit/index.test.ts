import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemErrorHandler } from "../problem/index.js";
import { limitBody } from "./index.js";

const maxBytes = 1_000;

/**
 * Sends `chunks` as the body, with a `content-length` when `declared` is set, else chunked; `end: false` leaves
 * the body unfinished (the answer is awaited all the same).
 */
const post = (port: number, chunks: readonly string[], declared: boolean, path = "/echo", end = true) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const length = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: declared ? { "content-length": String(length) } : { "transfer-encoding": "chunked" },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    for (const chunk of chunks) outgoing.write(chunk);
    if (end) outgoing.end();
  });

describe("limitBody over real HTTP", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = new Hono();
    app.onError(problemErrorHandler);
    app.use("*", limitBody(maxBytes));
    app.post("/echo", async (context) => context.text(`${(await context.req.text()).length}`));
    app.get("/echo", (context) => context.text("get"));
    app.post("/refuse", (context) => context.text("refused unread", 401));
    server = createAdaptorServer({ fetch: app.fetch }) as Server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each([
    ["declared", true],
    ["chunked", false],
  ])("lets a %s body within the limit through, whole", async (_, declared) => {
    const response = await post(port, ["a".repeat(600), "b".repeat(400)], declared);
    expect(response).toEqual({ status: 200, body: "1000" });
  });

  it.each([
    ["declared", true],
    ["chunked", false],
  ])("answers a %s body over the limit with a 413 problem", async (_, declared) => {
    const response = await post(port, ["a".repeat(600), "b".repeat(401)], declared);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ status: 413, code: "body-too-large" });
  });

  it("leaves a chunked body unread for the handler: one that refuses the request answers before the body ends", async () => {
    // The first chunk only; the body is never ended.
    const answered = await post(port, ["a".repeat(100)], false, "/refuse", false);
    expect(answered).toEqual({ status: 401, body: "refused unread" });
  });

  it("lets a GET through", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/echo`);
    expect(await response.text()).toBe("get");
  });
});
