import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inputLimits } from "../model/limits.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";

let server: TestServer;

/** A text repeated: `[unit, times]`. */
type Repeated = readonly [string, number];

/**
 * Sends the requests in parallel from a child process; resolves with their statuses. Each body is
 * `{ text, sources }`, every text a unit repeated, built there.
 */
const heavyClient = (
  url: string,
  key: string,
  body: { readonly text: Repeated; readonly sources: readonly Repeated[] },
  paths: readonly string[],
): Promise<number[]> =>
  new Promise((resolve, reject) => {
    const script = `
      const [url, key, spec, paths] = JSON.parse(process.argv[1]);
      const repeat = ([unit, times]) => unit.repeat(times);
      const body = { text: repeat(spec.text), sources: spec.sources.map(repeat) };
      const statuses = await Promise.all(paths.map(async (path) => {
        const response = await fetch(url + path, {
          method: "POST",
          headers: { authorization: "Bearer " + key, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        await response.arrayBuffer();
        return response.status;
      }));
      process.stdout.write(JSON.stringify(statuses));`;
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, JSON.stringify([url, key, body, paths])],
      { maxBuffer: 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as number[])),
    );
  });
let key: string;
const requestTimeoutMs = 20_000;

beforeAll(async () => {
  // One worker: the heavy requests share it, and the event loop that answers /healthz must stay free.
  server = await startTestServer({ requestTimeoutMs }, { verifyWorkers: 1 });
  key = await server.createApiKey("mallory", "agent");
  // The worker starts (compiled, or from sources through tsx: see current-build.ts) before the measured part.
  expect(
    (await server.call("POST", "/v1/check", { key, body: { text: "It is 5 m.", sources: ["5 m"] } })).status,
  ).toBe(200);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

const expectProblem = (
  answer: { status: number; headers: Headers; body: { code?: string; field?: string } },
  status: number,
  field: string,
) => {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/application\/problem\+json/);
  expect(answer.body.field).toBe(field);
};

describe("pathological input", () => {
  it("500 KB of '#1 ' answers within the request deadline while /healthz keeps answering within 100 ms", async () => {
    let heavyDone = false;
    const started = Date.now();
    // The heavy requests come from another process, so that building, sending and reading them does not
    // block this process's event loop, which the /healthz timings below would count against the server.
    const heavy = heavyClient(server.url, key, { text: ["#1 ", 33_333], sources: [["#1 ", 166_667]] }, [
      "/v1/numbers/validate",
      "/v1/verify",
    ]).finally(() => {
      heavyDone = true;
    });
    const health: number[] = [];
    while (!heavyDone) {
      const asked = performance.now();
      const answer = await fetch(`${server.url}/healthz`);
      await answer.text();
      health.push(performance.now() - asked);
      expect(answer.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const statuses = await heavy;
    expect(Date.now() - started).toBeLessThan(requestTimeoutMs + 2_000);
    expect(statuses).toEqual([200, 200]);
    expect(health.length).toBeGreaterThan(3);
    // The work takes seconds of CPU in the worker; had it run on the event loop, /healthz would have waited for
    // all of it. On a shared machine the scheduler alone can hold a thread back past 100 ms now and then, so the
    // bar is on the 95th percentile, and no answer may wait half a second.
    const sorted = [...health].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.95)]).toBeLessThan(100);
    expect(Math.max(...health)).toBeLessThan(500);
  }, 60_000);

  // Bodies of about 2 MB, the most the server takes, in the shapes whose figures once held a check for seconds
  // or minutes: a figure repeated through many sources, one long line in several, a table of totals.
  it.each([
    [
      "a citation marker answered against 7 sources of one amount",
      ["[1] ", 25_000],
      [["$1,000 ", 40_000], 7],
    ],
    [
      "500 claimed totals against 3 sources of one percentage",
      ["The total was 4,321,987. ", 4_000],
      [["1.5% ", 120_000], 3],
    ],
    [
      "a claimed total against 2 tables of 35,000 total rows",
      ["The total revenue was 777.25. ", 1],
      [["Total revenue | 1,000 | 900\n", 35_000], 2],
    ],
  ] as const)(
    "%s: the numbers route answers 200 within the deadline",
    async (_case, text, [source, count]) => {
      const started = Date.now();
      const statuses = await heavyClient(
        server.url,
        key,
        { text, sources: Array.from({ length: count }, () => source) },
        ["/v1/numbers/validate"],
      );
      expect(statuses).toEqual([200]);
      expect(Date.now() - started).toBeLessThan(requestTimeoutMs);
    },
    60_000,
  );

  it("refuses a NUL or a lone surrogate in any text with a 400 naming the field", async () => {
    const nul = await server.call("POST", "/v1/verify", {
      key,
      body: { text: "It is\u0000 5 m.", sources: ["5 m"] },
    });
    expectProblem(nul, 400, "text");
    const surrogate = await server.call("POST", "/v1/check", {
      key,
      rawBody: '{"text":"It is 5 m.","sources":["ok","5 m \\ud800"]}',
    });
    expectProblem(surrogate, 400, "sources[1]");
    const memory = await server.call("POST", "/v1/memory/ingest", {
      key,
      body: { content: "The port is 80\u0000", memoryType: "fact", source: "conversation" },
    });
    expectProblem(memory, 400, "content");
    const low = await server.call("POST", "/v1/memory/search", { key, rawBody: '{"query":"\\udc00 port"}' });
    expectProblem(low, 400, "query");
  });

  it("refuses JSON nested 100,000 deep with a 400, without overflowing the stack", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    for (const path of ["/v1/verify", "/v1/memory/ingest", "/v1/calibrate"]) {
      const answer = await server.call("POST", path, { key, rawBody: `{"text":${deep}}` });
      expectProblem(answer, 400, "body");
      expect(answer.body.code).toBe("too-deep");
    }
  });

  it("refuses more sources than the limits table allows, or a longer text, naming the field", async () => {
    const many = Array.from({ length: 5_000 }, (_, index) => `source ${index}`);
    for (const path of ["/v1/verify", "/v1/check", "/v1/numbers/validate", "/v1/citations/verify"]) {
      const answer = await server.call("POST", path, { key, body: { text: "It is 5 m.", sources: many } });
      expectProblem(answer, 400, "sources");
    }
    const long = await server.call("POST", "/v1/verify", {
      key,
      body: { text: "a".repeat(inputLimits.textChars + 1), sources: ["a"] },
    });
    expectProblem(long, 400, "text");
  });

  it("keeps serving after all of it", async () => {
    const health = await server.call("GET", "/healthz");
    expect(health.status).toBe(200);
    const answer = await server.call("POST", "/v1/verify", {
      key,
      body: { text: "The tower is 330 metres tall.", sources: ["The tower is 330 metres tall."] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.passed).toBe(true);
  });
});
