import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Schema } from "effect";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWorkerPoolVerifier,
  VerifierBusyError,
  type WorkerPoolVerifier,
} from "../facade/worker-pool/index.js";
import { VerificationError } from "../model/errors.js";
import type { OffThreadJsonReader } from "../text/json-text.js";
import { decodeBody, offThreadFromBytes } from "./decode-body.js";
import type { ServerEnv } from "./env.js";
import { problemErrorHandler } from "./middleware/problem/index.js";

const Body = Schema.Struct({ text: Schema.String, sources: Schema.Array(Schema.String) });

/** An app answering what `decodeBody` made of each body: the decoded value's sizes, or its problem. */
const appReading = (reader: OffThreadJsonReader | undefined) => {
  const app = new Hono<ServerEnv>();
  app.onError(problemErrorHandler);
  if (reader !== undefined)
    app.use("*", async (context, next) => {
      context.set("readJsonOffThread", reader);
      await next();
    });
  app.post("/decode", async (context) => {
    const { text, sources } = await decodeBody(context, Body);
    return context.json({
      text: text.slice(0, 40),
      sources: sources.map((source) => [source.length, source.slice(-8)]),
    });
  });
  return app;
};

const listen = async (app: Hono<ServerEnv>) => {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/decode` };
};

const post = async (url: string, body: Uint8Array) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, body: await response.json() };
};

const filler = "Revenue rose to $412.5 million in 2024, the filing says. ".repeat(
  Math.ceil(offThreadFromBytes / 50),
);
const bytes = (text: string) => new TextEncoder().encode(text);

describe("decodeBody with an off-thread reader, over real HTTP, the reader a worker pool's", () => {
  let pool: WorkerPoolVerifier;
  let offThread: { server: Server; url: string };
  let inThread: { server: Server; url: string };
  let reads = 0;

  beforeAll(async () => {
    pool = createWorkerPoolVerifier({ workers: 1 });
    const counted: OffThreadJsonReader = (body, maxDepth) => {
      reads += 1;
      return pool.readJsonOffThread(body, maxDepth);
    };
    [offThread, inThread] = await Promise.all([listen(appReading(counted)), listen(appReading(undefined))]);
  });

  afterAll(async () => {
    await Promise.all(
      [offThread, inThread].map(
        ({ server }) => new Promise<void>((resolve) => server.close(() => resolve())),
      ),
    );
    await pool.close();
  });

  it("reads each large body in the pool, and answers it as a server reading it in its own thread", async () => {
    const nested = `${"[".repeat(100)}${"]".repeat(100)}`;
    const invalidUtf8 = new Uint8Array([
      ...bytes(`{"text": "an answer", "sources": ["${filler}`),
      0xed,
      0xa0,
      0x80,
      0xc0,
      ...bytes('"]}'),
    ]);
    const bodies: Uint8Array[] = [
      bytes(JSON.stringify({ text: "an answer", sources: [filler, "a short source é"] })),
      bytes(`{"text": "an answer", "sources": ["${filler}"], "deep": ${nested}}`),
      bytes(`{"text": "an answer", "sources": ["${filler}"`),
      bytes(`{"text": "an answer", "sources": ["${filler}", "nul \\u0000 here"]}`),
      bytes(`{"text": "\\ud800", "sources": ["${filler}"]}`),
      bytes(JSON.stringify({ text: "an answer", sources: [filler], extra: true })),
      invalidUtf8,
      // A "__proto__" key stays an own key through the copy back (refused by the schema as any extra key), and
      // sets no object's prototype.
      bytes(`{"text": "an answer", "sources": ["${filler}"], "__proto__": {"polluted": true}}`),
    ];
    const statuses: number[] = [];
    for (const body of bodies) {
      expect(body.length).toBeGreaterThanOrEqual(offThreadFromBytes);
      const before = reads;
      const [off, here] = await Promise.all([post(offThread.url, body), post(inThread.url, body)]);
      expect(reads).toBe(before + 1);
      expect(off).toEqual(here);
      statuses.push(off.status);
    }
    // What each body is: read, too deep, malformed, a NUL, a lone surrogate, refused by the schema, read with
    // U+FFFD where the bytes are not UTF-8, a "__proto__" key refused by the schema.
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 200, 400]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("reads a body under the threshold in the server's thread", async () => {
    const before = reads;
    const body = bytes(JSON.stringify({ text: "an answer", sources: ["a source"] }));
    const [off, here] = await Promise.all([post(offThread.url, body), post(inThread.url, body)]);
    expect(off).toEqual(here);
    expect(off.status).toBe(200);
    expect(reads).toBe(before);
  });
});

describe("decodeBody when the off-thread reader cannot read", () => {
  const body = bytes(JSON.stringify({ text: "an answer", sources: [filler] }));

  it("reads the body in the server's thread when every large-call worker's queue is full", async () => {
    const busy: OffThreadJsonReader = () =>
      Promise.reject(new VerifierBusyError({ message: "every worker is busy", pending: 16 }));
    const [refused, inThread] = await Promise.all([listen(appReading(busy)), listen(appReading(undefined))]);
    try {
      const [answer, here] = await Promise.all([post(refused.url, body), post(inThread.url, body)]);
      expect(answer).toEqual(here);
      expect(answer.status).toBe(200);
    } finally {
      for (const { server } of [refused, inThread])
        await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("fails the request, never reading it here, when the worker fails", async () => {
    let calls = 0;
    const crashed: OffThreadJsonReader = () => {
      calls += 1;
      return Promise.reject(new VerificationError({ message: "verification worker stopped (exit code 1)" }));
    };
    const failing = await listen(appReading(crashed));
    try {
      const answer = await post(failing.url, body);
      expect(answer.status).toBe(502);
      expect(answer.body).toMatchObject({ code: "verification-failed" });
      expect(calls).toBe(1);
    } finally {
      await new Promise<void>((resolve) => failing.server.close(() => resolve()));
    }
  });
});
