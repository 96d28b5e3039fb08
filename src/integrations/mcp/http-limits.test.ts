import type { Socket } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { currentQueueOwner } from "../../facade/worker-pool/queue-owner.js";
import {
  connectionsQueuedWhileBusy,
  openConnection,
  openConnections,
  sendHalfBody,
  stallHead,
  writeUntilClosed,
} from "../../testing/raw-http.js";
import { openMcpDependencies } from "./dependencies.js";
import { type McpHttpOptions, type McpHttpServer, startMcpHttpServer } from "./http.js";
import type { McpDependencies } from "./tools.js";

const dependencies = openMcpDependencies({ userId: "alice", env: {} });
const servers: McpHttpServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await server.close();
});
afterAll(async () => {
  await dependencies.close();
});

const goodKey = "vk_good";
/** A second key of the same user: each key has its own share of the bodies held at once. */
const otherKey = "vk_other";
const start = async (options: McpHttpOptions, served: McpDependencies = dependencies) => {
  const server = await startMcpHttpServer(served, {
    authenticate: async (key) =>
      key === goodKey || key === otherKey ? { userId: "alice", principal: "agent" } : undefined,
    ...options,
  });
  servers.push(server);
  return server;
};

const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** `tools/list` padded with white space to exactly `bytes` bytes. */
const paddedTo = (bytes: number) => `${listTools.slice(0, -1)}${" ".repeat(bytes - listTools.length)}}`;

/** A `/mcp` call on its own connection that declares `body`'s length, then sends only its first half. */
const sendHalf = (url: string, key: string, body: string) =>
  sendHalfBody(
    url,
    "/mcp",
    {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body,
    sockets,
  );

/** One `/mcp` call with `key`: `tools/list` unless another JSON-RPC body is given. */
const call = (url: string, key: string, body = listTools) =>
  fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body,
  });

const bodyBytes = 16 * 1024;

/**
 * Calls with `goodKey` until the server has seen the half-sent bodies and refuses with `status`, then checks the
 * refusal: `retry-after` and a JSON-RPC error.
 */
const expectRefused = async (url: string, status: 429 | 503) => {
  let refused = await call(url, goodKey);
  for (let attempt = 0; attempt < 100 && refused.status !== status; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    refused = await call(url, goodKey);
  }
  expect(refused.status).toBe(status);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
};

describe("the MCP HTTP endpoint's limits across connections", () => {
  it("holds at most maxBodyBytesInFlight of bodies; an authenticated call past it is 503, an unknown key 401", async () => {
    const server = await start({ maxBodyBytes: bodyBytes, maxBodyBytesInFlight: 2 * bodyBytes });
    const held = [
      sendHalf(server.url, goodKey, paddedTo(bodyBytes)),
      sendHalf(server.url, goodKey, paddedTo(bodyBytes)),
    ];
    // Both are authenticated and waiting for the rest of their bodies; the total is full.
    await expectRefused(server.url, 503);
    // A caller without a valid key learns that, not that the server is busy.
    expect((await call(server.url, "vk_unknown")).status).toBe(401);

    // A held call, its body complete, is answered and gives its share back.
    expect(await held[0]?.finish()).toBe(200);
    expect((await call(server.url, goodKey)).status).toBe(200);
  }, 60_000);

  it.each([
    [
      "maxBodyBytesInFlightPerKey (its bodies' bytes)",
      { maxBodyBytesInFlight: 3 * bodyBytes, maxBodyBytesInFlightPerKey: 2 * bodyBytes },
    ],
    ["maxRequestsInFlightPerKey (its calls)", { maxRequestsInFlightPerKey: 2 }],
  ])(
    "holds one key to %s, 429 past it, while another key still gets in",
    async (_limit, limits) => {
      // Two half-sent calls of one key fill its share; the total has room.
      const server = await start({ maxBodyBytes: bodyBytes, ...limits });
      const held = [
        sendHalf(server.url, goodKey, paddedTo(bodyBytes)),
        sendHalf(server.url, goodKey, paddedTo(bodyBytes)),
      ];
      await expectRefused(server.url, 429);
      expect((await call(server.url, otherKey)).status).toBe(200);

      expect(await held[0]?.finish()).toBe(200);
      expect((await call(server.url, goodKey)).status).toBe(200);
    },
    60_000,
  );

  it("never refuses a body the size limit admits when the total is set below it", async () => {
    const server = await start({ maxBodyBytes: bodyBytes, maxBodyBytesInFlight: 1_024 });
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${goodKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: paddedTo(bodyBytes),
    });
    expect(response.status).toBe(200);
  }, 60_000);

  it("closes a connection past maxConnections as it arrives", async () => {
    const server = await start({ maxConnections: 1 });
    const { host } = new URL(server.url);
    const open = () => openConnection(server.url, sockets);
    const held = await open();
    const second = await open();
    expect(
      await writeUntilClosed(second, `POST /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 2\r\n\r\n{}`),
    ).toBe("");
    held.destroy();
    let answered: Response | undefined;
    for (let attempt = 0; attempt < 100 && answered === undefined; attempt += 1)
      answered = await call(server.url, goodKey).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return undefined;
      });
    expect(answered?.status).toBe(200);
  }, 60_000);

  it("closes a connection past maxConnectionsPerAddress from one address while another address is served", async () => {
    // The cap binds once half of maxConnections are open: here the address's own two connections.
    const server = await start({ maxConnections: 4, maxConnectionsPerAddress: 2 });
    const { host } = new URL(server.url);
    const held = await openConnections(server.url, 2, sockets, "127.0.0.1");
    const third = await openConnection(server.url, sockets, "127.0.0.1");
    const head = `POST /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`;
    expect(await writeUntilClosed(third, head)).toBe("");
    // Any answer at all (the empty body is refused) shows the connection from the other address was served.
    const other = await openConnection(server.url, sockets, "127.0.0.2");
    expect(await writeUntilClosed(other, head)).toMatch(/^HTTP\/1\.1 \d{3}/);
    for (const socket of held) socket.destroy();
  }, 60_000);

  it("queues a burst of new connections that arrives while its event loop is busy, dropping none", async () => {
    const server = await start({});
    // Node's default queue (511) held 512 of them: the kernel dropped the others' SYNs.
    expect(await connectionsQueuedWhileBusy(Number(new URL(server.url).port), 900, "127.0.0.9")).toBe(900);
  }, 60_000);

  it("closes a connection whose request headers do not arrive within headersTimeoutMs", async () => {
    const server = await start({ headersTimeoutMs: 300 });
    // Half a request head, then nothing: without the deadline Node would keep it for a minute or more.
    expect([0, 408]).toContain(await stallHead(server.url, "/mcp", sockets));
  }, 30_000);
});

describe("whose turn the MCP endpoint's verifications take", () => {
  it("queues each key's tool calls as that key's, so one key's calls wait behind each other, not others'", async () => {
    // The owner each verification was queued as (queue-owner.ts), read where the tool calls the verifier.
    const owners: string[] = [];
    const recording: McpDependencies = {
      ...dependencies,
      verifier: {
        ...dependencies.verifier,
        runLayer: (...args) => {
          owners.push(currentQueueOwner());
          return dependencies.verifier.runLayer(...args);
        },
      },
    };
    const server = await start({}, recording);
    const checkGrounding = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "check_grounding",
        arguments: { text: "Paris is in France.", sources: ["Paris is in France."] },
      },
    });
    for (const key of [goodKey, otherKey, goodKey, otherKey])
      expect((await call(server.url, key, checkGrounding)).status).toBe(200);
    const [good, other, goodAgain, otherAgain] = owners;
    expect(owners).toHaveLength(4);
    expect(good).not.toBe("");
    expect(other).not.toBe("");
    expect(good).not.toBe(other);
    expect(goodAgain).toBe(good);
    expect(otherAgain).toBe(other);
  }, 60_000);
});
