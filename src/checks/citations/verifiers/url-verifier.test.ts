import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationKey, type ExtractedCitation } from "../citation.js";
import { isForbiddenAddress } from "./address-policy.js";
import { makeUrlVerifier, type UrlVerifierOptions } from "./url-verifier.js";

const citation = (url: string): ExtractedCitation => ({
  kind: "url",
  value: url,
  raw: url,
  span: { start: 0, end: url.length },
  surroundingText: url,
});

const check = async (url: string, options: UrlVerifierOptions) => {
  const checks = await Effect.runPromise(makeUrlVerifier(options).verify([citation(url)]));
  return checks.get(citationKey("url", url));
};

describe("URL verifier against local HTTP servers", () => {
  let server: Server;
  let base: string;
  let served = 0;
  const slowResponses = new Set<import("node:http").ServerResponse>();

  beforeAll(async () => {
    server = createServer((request, response) => {
      served += 1;
      const url = request.url ?? "/";
      if (url === "/ok") response.writeHead(200).end("fine");
      else if (url === "/head-not-allowed")
        request.method === "HEAD" ? response.writeHead(405).end() : response.writeHead(200).end("get works");
      else if (url === "/missing") response.writeHead(404).end();
      else if (url === "/to-metadata")
        response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      else if (url === "/to-private-name")
        response.writeHead(302, { location: "http://intranet.example/" }).end();
      else if (url === "/to-ok") response.writeHead(301, { location: "/ok" }).end();
      else if (url === "/loop") response.writeHead(302, { location: "/loop" }).end();
      else if (url === "/slow") {
        slowResponses.add(response);
        response.on("close", () => slowResponses.delete(response));
      } else if (url === "/huge") {
        // Answers HEAD with 500 to force a GET, then streams without end: the reader must cut it.
        if (request.method === "HEAD") {
          response.writeHead(500).end();
          return;
        }
        response.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = () => {
          while (response.write(chunk)) {}
        };
        response.on("drain", pump);
        pump();
      } else response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const response of slowResponses) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const allowLoopback: UrlVerifierOptions = { allowHosts: ["127.0.0.1"], timeoutMs: 2000 };

  it("lets an allow-listed loopback target pass", async () => {
    expect(await check(`${base}/ok`, allowLoopback)).toMatchObject({
      status: "VERIFIED",
      detail: "HTTP 200",
    });
  });

  it("refuses loopback when it is not allow-listed, without connecting", async () => {
    const before = served;
    const result = await check(`${base}/ok`, { timeoutMs: 2000 });
    expect(result?.status).toBe("ERROR");
    expect(result?.detail).toContain("forbidden address");
    expect(served).toBe(before);
  });

  it("falls back to GET when HEAD is refused", async () => {
    expect(await check(`${base}/head-not-allowed`, allowLoopback)).toMatchObject({ status: "VERIFIED" });
  });

  it("reports a 404 as NOT_FOUND", async () => {
    expect(await check(`${base}/missing`, allowLoopback)).toMatchObject({
      status: "NOT_FOUND",
      detail: "HTTP 404",
    });
  });

  it("follows an allowed redirect", async () => {
    expect(await check(`${base}/to-ok`, allowLoopback)).toMatchObject({ status: "VERIFIED" });
  });

  it("refuses a redirect to the cloud metadata address", async () => {
    const result = await check(`${base}/to-metadata`, allowLoopback);
    expect(result?.status).toBe("ERROR");
    expect(result?.detail).toContain("169.254.169.254");
  });

  it("refuses a redirect to a name that resolves to a private address (injected DNS)", async () => {
    const result = await check(`${base}/to-private-name`, {
      ...allowLoopback,
      resolve: async (hostname) => (hostname === "intranet.example" ? ["10.1.2.3"] : []),
    });
    expect(result?.status).toBe("ERROR");
    expect(result?.detail).toContain("10.1.2.3");
  });

  it("refuses a public name whose DNS answer includes a private address", async () => {
    const result = await check("http://mixed.example/", {
      timeoutMs: 2000,
      resolve: async () => ["93.184.216.34", "192.168.1.1"],
    });
    expect(result?.detail).toContain("192.168.1.1");
  });

  it("caps redirects", async () => {
    const result = await check(`${base}/loop`, { ...allowLoopback, maxRedirects: 3 });
    expect(result).toMatchObject({ status: "ERROR", detail: "more than 3 redirects" });
  });

  it("times out on a slow server", async () => {
    const started = performance.now();
    const result = await check(`${base}/slow`, { allowHosts: ["127.0.0.1"], timeoutMs: 300 });
    expect(result).toMatchObject({ status: "ERROR", detail: "timed out after 300 ms" });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("cuts a huge body", async () => {
    const result = await check(`${base}/huge`, { ...allowLoopback, maxBytes: 100_000 });
    expect(result?.status).toBe("VERIFIED");
    expect(result?.detail).toContain("body cut at 100000 bytes");
  });

  it.each(["ftp://example.org/file", "http://user:secret@example.org/"])("refuses %s", async (url) => {
    expect((await check(url, { resolve: async () => ["93.184.216.34"] }))?.status).toBe("ERROR");
  });
});

describe("forbidden addresses", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.0.0.8", true],
    ["172.20.1.1", true],
    ["192.168.0.1", true],
    ["169.254.169.254", true],
    ["100.100.100.200", true],
    ["224.0.0.1", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["fe80::1", true],
    ["fd00:ec2::254", true],
    ["ff02::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::7f00:1", true],
    ["2002:7f00:1::", true],
    ["not-an-ip", true],
    ["64:ff9b::7f00:1", true],
    ["64:ff9b:1::a00:1", true],
    ["::ffff:0:7f00:1", true],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", true],
    ["2001:db8::1", true],
    ["198.51.100.7", true],
    ["255.255.255.255", true],
    ["[::1]", true],
    ["::ffff:93.184.216.34", false],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["2606:2800:220:1:248:1893:25c8:1946", false],
  ])("%s forbidden: %s", (address, expected) => {
    expect(isForbiddenAddress(address)).toBe(expected);
  });
});
