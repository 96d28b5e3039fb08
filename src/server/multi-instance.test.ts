import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Effect } from "effect";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../facade/worker-pool/current-build.js";
import { makePostgresClient } from "../storage/postgres-client.js";
import { testPostgresUrl } from "../storage/testing.js";
import { createApiKey, migrateServerTables } from "./keys/api-keys.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const cli = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
const url = testPostgresUrl();
const schema = `veracity_serve_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;

interface Instance {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<number | null>;
  readonly output: () => string;
}

/** Starts `veracity serve` in its own process and resolves with its URL once it listens. */
const startInstance = (): Promise<Instance> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...nodeArgsToRun(cli),
        "serve",
        "--port",
        "0",
        "--db",
        url,
        "--db-schema",
        schema,
        "--rate-limit",
        "100000",
      ],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: "" } },
    );
    let output = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1], exited, output: () => output });
    });
    void exited.then((code) =>
      reject(new Error(`veracity serve exited (${code}) before listening:\n${output}`)),
    );
  });

const admin = async <A>(work: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

describe("two veracity serve processes on one PostgreSQL", () => {
  let key: string;
  let instances: Instance[] = [];

  beforeAll(async () => {
    await admin((client) => client.query(`CREATE SCHEMA ${schema}`));
    key = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* Effect.acquireRelease(makePostgresClient(url, { schema, max: 2 }), (client) =>
            Effect.ignore(client.close),
          );
          yield* migrateServerTables(sql);
          return (yield* createApiKey(sql, "owner", "", "admin")).key;
        }),
      ),
    );
    instances = await Promise.all([startInstance(), startInstance()]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill("SIGKILL");
    await admin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  });

  let requestsMade = 0;
  const call = async (instance: Instance, method: string, path: string, body?: unknown) => {
    requestsMade += 1;
    const response = await fetch(`${instance.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    return { status: response.status, body: (await response.json()) as any };
  };

  it("decides each item exactly once under concurrent approve/reject on both instances, and loses nothing", async () => {
    const [first, second] = instances as [Instance, Instance];
    const topics = [
      "billing",
      "search",
      "ingest",
      "payments",
      "reporting",
      "auth",
      "mailer",
      "scheduler",
      "gateway",
      "cache",
      "queue",
      "exporter",
    ];
    const queued: string[] = [];
    for (const [index, topic] of topics.entries()) {
      const instance = index % 2 === 0 ? first : second;
      const response = await call(instance, "POST", "/v1/memory/ingest", {
        content: `The ${topic} component was rewritten in release ${index + 3}.${index * 7} during sprint ${topic.length * 11}`,
        memoryType: "fact",
        source: "conversation",
      });
      if (response.status === 202) queued.push(response.body.pending.queueId);
    }
    expect(queued.length).toBeGreaterThanOrEqual(10);

    const attempts = queued.flatMap((queueId) =>
      [first, second].flatMap((instance) => [
        call(instance, "POST", `/v1/review/${queueId}/approve`).then((answer) => ({
          queueId,
          action: "approve",
          ...answer,
        })),
        call(instance, "POST", `/v1/review/${queueId}/reject`, {
          reason: "duplicate of the release notes",
        }).then((answer) => ({ queueId, action: "reject", ...answer })),
      ]),
    );
    const answers = await Promise.all(attempts);
    for (const queueId of queued) {
      const forItem = answers.filter((answer) => answer.queueId === queueId);
      expect(forItem.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404]);
      for (const refused of forItem.filter((answer) => answer.status === 404))
        expect(refused.body.code).toBe("review-item-not-found");
    }
    const approvedIds = answers
      .filter((answer) => answer.status === 200 && answer.action === "approve")
      .map((a) => a.queueId);

    for (const instance of instances)
      expect((await call(instance, "GET", "/v1/review/pending")).body.items).toEqual([]);
    const audit = (await call(second, "GET", "/v1/audit")).body.entries as {
      action: string;
      queueId?: string;
    }[];
    for (const queueId of queued)
      expect(
        audit.filter(
          (entry) => entry.queueId === queueId && (entry.action === "approve" || entry.action === "reject"),
        ),
      ).toHaveLength(1);
    const stored = await admin((client) =>
      client.query(`SELECT count(*)::int AS n FROM ${schema}.veracity_memories WHERE user_id = 'owner'`),
    );
    expect(stored.rows[0].n).toBe(approvedIds.length);
    const chain = await call(first, "GET", "/v1/audit/verify");
    // One entry per ingestion decision (stored, queued or blocked) and one per review decision.
    expect(chain.body).toMatchObject({ intact: true, checked: topics.length + queued.length });
  }, 120_000);

  it("counts the per-key rate limit in the database, for requests to both instances", async () => {
    const counted = await admin((client) =>
      client.query(`SELECT sum(hits)::int AS hits FROM ${schema}.veracity_server_rate_windows`),
    );
    // Hits are reserved before they are spent, so the shared count covers every request both instances answered.
    expect(counted.rows[0].hits).toBeGreaterThanOrEqual(requestsMade);
  }, 60_000);

  it("stops gracefully on SIGTERM", async () => {
    for (const instance of instances) instance.child.kill("SIGTERM");
    const codes = await Promise.all(instances.map((instance) => instance.exited));
    expect(codes).toEqual([0, 0]);
    for (const instance of instances) expect(instance.output()).toContain('"msg":"stopped"');
  }, 60_000);
});
