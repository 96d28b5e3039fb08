import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledUrlOf } from "../facade/worker-pool/current-build.js";
import { createWorkerPoolVerifier } from "../facade/worker-pool/index.js";
import { plantChecks } from "../facade/worker-pool/testing/plant-checks.js";
import { withoutTimings } from "../facade/worker-pool/testing/without-timings.js";
import { makeTestRepository } from "../testing/git-repository.js";
import { offThreadFromBytes } from "./decode-body.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";

const sources = [
  "Net sales of the Cloud division rose to $412.5 million in the third quarter of 2024, according to chief " +
    "financial officer Lee Park. Headcount of the Retail division fell to 1,250 in 2023.",
];
const checks = [
  { text: "Net sales of the Cloud division rose to $412.5 million in the third quarter of 2024.", sources },
  {
    text: "Net sales of the Cloud division fell to $512.5 million in 2021, according to Ana Silva.",
    sources,
  },
];

/** The process's threads, by id. */
const threadIds = () => new Set(readdirSync("/proc/self/task"));
/**
 * Threads one worker starts: its own, and, when this checkout's build is older than its sources so the worker
 * runs them through tsx, the thread tsx's module hooks run on (Node runs registered hooks off the thread that
 * registered them). The suite runs either way: CI builds first, an edit before `npm test` leaves the build behind.
 */
const threadsPerWorker = compiledUrlOf(
  new URL("../facade/worker-pool/verify-worker.ts", import.meta.url),
).pathname.endsWith(".js")
  ? 1
  : 2;
/** The process's threads started since `before` was listed (threads that ended meanwhile do not count). */
const startedSince = (before: Set<string>) => [...threadIds()].filter((id) => !before.has(id)).length;

describe("/v1/check in verification worker threads", () => {
  let pooled: TestServer;
  let inThread: TestServer;
  let pooledKey: string;
  let inThreadKey: string;
  beforeAll(async () => {
    [pooled, inThread] = await Promise.all([
      startTestServer({}, { verifyWorkers: 2 }),
      startTestServer({}, { verifyWorkers: 0 }),
    ]);
    [pooledKey, inThreadKey] = await Promise.all([
      pooled.createApiKey("alice"),
      inThread.createApiKey("alice"),
    ]);
  });
  afterAll(async () => {
    await Promise.all([pooled?.close(), inThread?.close()]);
  });

  it("answers exactly what a server checking in its own thread answers", async () => {
    for (const body of checks) {
      const [fromPool, fromThread] = await Promise.all([
        pooled.call("POST", "/v1/check", { key: pooledKey, body }),
        inThread.call("POST", "/v1/check", { key: inThreadKey, body }),
      ]);
      expect(fromPool.status).toBe(200);
      expect(withoutTimings(fromPool.body)).toEqual(withoutTimings(fromThread.body));
    }
    const second = await pooled.call("POST", "/v1/check", { key: pooledKey, body: checks[1] });
    expect(second.body.passed).toBe(false);
  });

  it("counts the workers' verifications in /metrics and runs concurrent checks", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        pooled.call("POST", "/v1/check", { key: pooledKey, body: checks[index % 2] }),
      ),
    );
    expect(answers.map((answer) => answer.body.passed)).toEqual(
      Array.from({ length: 20 }, (_, index) => index % 2 === 0),
    );
    const metrics = await pooled.call("GET", "/metrics");
    const failed = /veracity_verifications_total\{risk_level="[a-z]+",outcome="failed"\} (\d+)/.exec(
      metrics.body,
    );
    expect(Number(failed?.[1])).toBeGreaterThanOrEqual(10);
  });
});

describe("/v1/check with a large-request worker", () => {
  it("answers a check past the threshold exactly as a server checking in its own thread", async () => {
    const large = { text: checks[1]?.text ?? "", sources: [`${sources[0]} `.repeat(20)] };
    const [pooled, inThread] = await Promise.all([
      startTestServer({}, { verifyWorkers: 1, largeRequestChars: 2_000 }),
      startTestServer({}, { verifyWorkers: 0 }),
    ]);
    try {
      const [pooledKey, inThreadKey] = await Promise.all([
        pooled.createApiKey("alice"),
        inThread.createApiKey("alice"),
      ]);
      for (const body of [large, checks[0]]) {
        const [fromPool, fromThread] = await Promise.all([
          pooled.call("POST", "/v1/check", { key: pooledKey, body }),
          inThread.call("POST", "/v1/check", { key: inThreadKey, body }),
        ]);
        expect(fromPool.status).toBe(200);
        expect(withoutTimings(fromPool.body)).toEqual(withoutTimings(fromThread.body));
      }
    } finally {
      await Promise.all([pooled.close(), inThread.close()]);
    }
  });
});

describe("a pool with every worker busy", () => {
  it("answers 503 verifier-busy with retry-after, never a pass, and checks what it accepted", async () => {
    const server = await startTestServer(
      {},
      { checker: createWorkerPoolVerifier({ workers: 1, maxPendingPerWorker: 1 }) },
    );
    try {
      const key = await server.createApiKey("alice");
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => server.call("POST", "/v1/check", { key, body: checks[0] })),
      );
      const refused = answers.filter((answer) => answer.status === 503);
      const checked = answers.filter((answer) => answer.status === 200);
      expect(refused.length).toBeGreaterThan(0);
      expect(checked.length).toBeGreaterThan(0);
      expect(refused.length + checked.length).toBe(20);
      for (const answer of refused) {
        expect(answer.body.code).toBe("verifier-busy");
        expect(answer.headers.get("retry-after")).toBe("1");
      }
      for (const answer of checked) expect(answer.body.passed).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("/v1/check with a configuration file", () => {
  it("runs with the file's settings in the workers as in the server's own thread", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = await mkdtemp(join(tmpdir(), "veracity-check-config-"));
    const config = join(dir, "veracity.json");
    // Strict: a layer of the profile that cannot run (no model here) fails the check.
    await writeFile(config, JSON.stringify({ strict: true }));
    const servers = await Promise.all([
      startTestServer({}, { config, verifyWorkers: 1 }),
      startTestServer({}, { config, verifyWorkers: 0 }),
      startTestServer({}, { verifyWorkers: 1 }),
    ]);
    try {
      const [pooled, inThread, unconfigured] = await Promise.all(
        servers.map(async (server) => {
          const key = await server.createApiKey("alice");
          return server.call("POST", "/v1/check", { key, body: checks[0] });
        }),
      );
      expect(unconfigured?.body.verdict).toBe("pass");
      expect(pooled?.body.verdict).toBe("fail");
      expect(withoutTimings(pooled?.body)).toEqual(withoutTimings(inThread?.body));
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

describe("/v1/verify on a server given a repository", () => {
  it("checks the repository's citations with verification workers as without them", async () => {
    const repository = await makeTestRepository({ "README.md": "The app.\n" });
    const servers = await Promise.all([
      startTestServer({}, { repositoryDir: repository.directory, verifyWorkers: 2 }),
      startTestServer({}, { repositoryDir: repository.directory, verifyWorkers: 0 }),
      startTestServer({}, { verifyWorkers: 0 }),
    ]);
    try {
      const body = {
        text: `The change landed in commit ${repository.commit.slice(0, 10)} and its fix in commit deadbeef12.`,
      };
      const [pooled, inThread, withoutRepository] = await Promise.all(
        servers.map(async (server) => {
          const key = await server.createApiKey("alice");
          return {
            verified: await server.call("POST", "/v1/verify", { key, body }),
            checked: await server.call("POST", "/v1/check", { key, body }),
          };
        }),
      );
      // A commit the repository does not have fails the answer.
      expect(pooled?.verified.body.verdict).toBe("fail");
      expect(pooled?.verified.body.layersRun.map((layer: { layer: string }) => layer.layer)).toContain(
        "citations",
      );
      expect(withoutTimings(pooled?.verified.body)).toEqual(withoutTimings(inThread?.verified.body));
      // `/v1/check` runs the offline evidence layers only, on the same pool.
      expect(pooled?.checked.body.layersRun.map((layer: { layer: string }) => layer.layer)).not.toContain(
        "citations",
      );
      expect(withoutTimings(pooled?.checked.body)).toEqual(withoutTimings(inThread?.checked.body));
      expect(withoutTimings(pooled?.checked.body)).toEqual(withoutTimings(withoutRepository?.checked.body));
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await rm(repository.directory, { recursive: true, force: true });
    }
  }, 60_000);

  it.runIf(existsSync("/proc/self/task"))(
    "runs in the pool's workers: a large request starts the large-call worker",
    async () => {
      const repository = await makeTestRepository({ "README.md": "The app.\n" });
      const [pooled, inThread] = await Promise.all([
        startTestServer(
          {},
          { repositoryDir: repository.directory, verifyWorkers: 1, largeRequestChars: 2_000 },
        ),
        startTestServer({}, { repositoryDir: repository.directory, verifyWorkers: 0 }),
      ]);
      try {
        const body = {
          text: `Net sales of the Cloud division rose to $412.5 million, as commit deadbeef12 records.`,
          sources: [`${sources[0]} `.repeat(20)],
        };
        const [pooledKey, inThreadKey] = await Promise.all([
          pooled.createApiKey("alice"),
          inThread.createApiKey("alice"),
        ]);
        const here = await inThread.call("POST", "/v1/verify", { key: inThreadKey, body });
        const before = threadIds();
        const off = await pooled.call("POST", "/v1/verify", { key: pooledKey, body });
        expect(startedSince(before)).toBe(threadsPerWorker);
        expect(off.body.verdict).toBe("fail");
        expect(withoutTimings(off.body)).toEqual(withoutTimings(here.body));
      } finally {
        await Promise.all([pooled.close(), inThread.close()]);
        await rm(repository.directory, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe("a large request body with verification workers", () => {
  // Malformed, so nothing is verified: a thread that starts for it started to read it.
  const malformedLarge = `{"text": "an answer", "sources": ["${"x".repeat(offThreadFromBytes)}"`;

  it.runIf(existsSync("/proc/self/task"))(
    "is read in the large-call worker, started for it, and answered as the server's own thread answers it",
    async () => {
      const limits = { maxBodyBytes: 2 * offThreadFromBytes };
      const [pooled, inThread] = await Promise.all([
        startTestServer(limits, { verifyWorkers: 1 }),
        startTestServer(limits, { verifyWorkers: 0 }),
      ]);
      try {
        const [pooledKey, inThreadKey] = await Promise.all([
          pooled.createApiKey("alice"),
          inThread.createApiKey("alice"),
        ]);
        const send = (server: TestServer, key: string, body: string) =>
          fetch(`${server.url}/v1/check`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body,
          }).then(async (response) => ({
            status: response.status,
            body: (await response.json()) as { code?: string },
          }));
        const before = threadIds();
        // A small malformed body, and a large one in the server without workers: no thread starts.
        expect((await send(pooled, pooledKey, '{"text": "')).status).toBe(400);
        const here = await send(inThread, inThreadKey, malformedLarge);
        expect(startedSince(before)).toBe(0);
        const off = await send(pooled, pooledKey, malformedLarge);
        expect(off).toEqual(here);
        expect(off.body.code).toBe("malformed-json");
        expect(startedSince(before)).toBe(threadsPerWorker);
      } finally {
        await Promise.all([pooled.close(), inThread.close()]);
      }
    },
  );
});

describe("requests of several keys in one verification worker", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { verifyWorkers: 1 });
  });
  afterAll(async () => {
    await server?.close();
  });

  // Each check takes tens of milliseconds in the worker: a burst of them waits there in a queue.
  const check = plantChecks(600, 80);

  it("answers another key's request among the next, not behind every request one key sent before it", async () => {
    const [busyKey, otherKey] = await Promise.all([
      server.createApiKey("busy"),
      server.createApiKey("other"),
    ]);
    // Each key's first request reads its key from the database; from then on it is in the server's key cache.
    for (const key of [busyKey, otherKey])
      expect((await server.call("POST", "/v1/check", { key, body: check(0) })).status).toBe(200);
    const burst = 16;
    const answered: string[] = [];
    const first = new Promise<void>((resolve) => {
      for (let index = 0; index < burst; index += 1)
        void server.call("POST", "/v1/check", { key: busyKey, body: check(index) }).then(({ status }) => {
          answered.push(`busy ${status}`);
          resolve();
        });
    });
    // Once the first of the burst is answered the rest wait in the worker, then the other key sends one.
    await first;
    const other = await server.call("POST", "/v1/check", { key: otherKey, body: check(burst) });
    expect(other.status).toBe(200);
    const busyBefore = answered.length;
    // The other key's request ran beside the burst's next one or two, not after all fifteen still waiting (half the
    // burst leaves room for a slow machine).
    expect(busyBefore).toBeLessThanOrEqual(8);
    await expect.poll(() => answered.length, { timeout: 30_000 }).toBe(burst);
    expect(answered).toEqual(Array.from({ length: burst }, () => "busy 200"));
  }, 60_000);
});
