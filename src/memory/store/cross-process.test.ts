import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Effect } from "effect";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../../facade/worker-pool/current-build.js";
import { makePgliteClient } from "../../storage/pglite-client.js";
import { makePostgresClient } from "../../storage/postgres-client.js";
import { testPostgresUrl } from "../../storage/testing.js";
import { migrateMemoryStore } from "./sql-memory-layer.js";
import { makeSqlReviewQueue } from "./sql-review-queue.js";

const worker = fileURLToPath(new URL("../testing/store-worker.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

interface Worker {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<number>;
  /** Resolves with the first output line matching `predicate` (signalled, not polled). */
  readonly line: (predicate: (line: string) => boolean) => Promise<string>;
}

const startWorker = (args: object): Worker => {
  const child = spawn(process.execPath, [...nodeArgsToRun(worker), JSON.stringify(args)], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const output = new EventEmitter();
  let buffered = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    lines.push(...parts);
    output.emit("lines");
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number>((resolve) =>
    child.on("exit", (code) => {
      if (code !== 0) process.stderr.write(`worker failed: ${errors}\n`);
      output.emit("exit");
      resolve(code ?? 1);
    }),
  );
  const line = (predicate: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find(predicate);
        if (found !== undefined) resolve(found);
      };
      output.on("lines", check);
      output.once("exit", () => reject(new Error(`worker exited before answering: ${errors}`)));
      check();
    });
  return { child, lines, exited, line };
};

describe("PGlite store across processes", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("a store reopened after the process that filled it exited still holds every pending item", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "veracity-memory-"));
    dirs.push(dataDir);
    const claims = ["The API uses OAuth2", "The service uses PostgreSQL 15", "Deploys run on Fridays"];
    const { lines, exited } = startWorker({
      mode: "enqueue",
      target: { kind: "pglite", dataDir },
      userId: "persist",
      claims,
    });
    expect(await exited).toBe(0);
    const queueIds = JSON.parse(lines[0]!) as string[];
    expect(queueIds).toHaveLength(3);

    const pending = await Effect.runPromise(
      Effect.acquireUseRelease(
        makePgliteClient(dataDir),
        (sql) => migrateMemoryStore(sql).pipe(Effect.andThen(makeSqlReviewQueue(sql).pending("persist", 10))),
        (sql) => Effect.ignore(sql.close),
      ),
    );
    expect(pending.map((item) => item.queueId).sort()).toEqual([...queueIds].sort());
    expect(pending.map((item) => item.content).sort()).toEqual([...claims].sort());
  });

  // Without the directory lock each process kept its own copy of the database and the last to close
  // overwrote the others: 6 concurrent `veracity memory ingest` runs each printed "queued", 2 items remained.
  it("processes enqueuing into one PGlite directory at the same time lose no item", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "veracity-memory-"));
    dirs.push(dataDir);
    const workers = [0, 1, 2].map((n) =>
      startWorker({
        mode: "enqueue",
        target: { kind: "pglite", dataDir },
        userId: "together",
        claims: [`Worker ${n} first claim`, `Worker ${n} second claim`],
      }),
    );
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0, 0]);
    const queueIds = workers.flatMap((worker) => JSON.parse(worker.lines[0]!) as string[]);
    expect(queueIds).toHaveLength(6);

    const pending = await Effect.runPromise(
      Effect.acquireUseRelease(
        makePgliteClient(dataDir),
        (sql) =>
          migrateMemoryStore(sql).pipe(Effect.andThen(makeSqlReviewQueue(sql).pending("together", 10))),
        (sql) => Effect.ignore(sql.close),
      ),
    );
    expect(pending.map((item) => item.queueId).sort()).toEqual([...queueIds].sort());
  }, 300_000);
});

const pgUrl = testPostgresUrl();

describe.skipIf(pgUrl === "skip")("PostgreSQL review queue raced by two processes", () => {
  const schema = `veracity_memrace_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  afterAll(async () => {
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it("50 parallel approve/reject calls from two processes store each approved item exactly once and lose none", async () => {
    await admin(`CREATE SCHEMA ${schema}`);
    const target = { kind: "postgres", url: pgUrl, schema };
    const seeded = startWorker({
      mode: "enqueue",
      target,
      userId: "racer",
      claims: Array.from({ length: 10 }, (_, i) => `Contested claim ${i}`),
    });
    expect(await seeded.exited).toBe(0);
    const queueIds = JSON.parse(seeded.lines[0]!) as string[];

    const racers = [0, 1].map((offset) =>
      startWorker({ mode: "race", target, userId: "racer", queueIds, calls: 25, offset }),
    );
    await Promise.all(racers.map((racer) => racer.line((line) => line === "ready")));
    for (const racer of racers) racer.child.stdin!.write("go\n");
    const codes = await Promise.all(racers.map((racer) => racer.exited));
    expect(codes).toEqual([0, 0]);
    const outcomes = racers.flatMap(
      (racer) =>
        JSON.parse(racer.lines.find((line) => line.startsWith("["))!) as {
          queueId: string;
          outcome: string;
        }[],
    );
    expect(outcomes).toHaveLength(50);

    const wins = outcomes.filter((entry) => entry.outcome === "approve" || entry.outcome === "reject");
    expect(wins.map((entry) => entry.queueId).sort()).toEqual([...queueIds].sort()); // each item decided once, none lost
    expect(new Set(outcomes.filter((entry) => !wins.includes(entry)).map((entry) => entry.outcome))).toEqual(
      new Set(["ReviewItemNotFoundError"]),
    );

    const rows = await Effect.runPromise(
      Effect.acquireUseRelease(
        makePostgresClient(pgUrl, { schema, max: 2 }),
        (sql) =>
          Effect.all({
            memories: sql.query<{ origin_queue_id: string }>("SELECT origin_queue_id FROM veracity_memories"),
            pending: sql.query("SELECT queue_id FROM veracity_review_queue"),
            decisions: sql.query<{ action: string; queue_id: string }>(
              "SELECT action, queue_id FROM veracity_memory_audit WHERE action IN ('approve', 'reject')",
            ),
          }),
        (sql) => Effect.ignore(sql.close),
      ),
    );
    const approved = wins
      .filter((entry) => entry.outcome === "approve")
      .map((entry) => entry.queueId)
      .sort();
    expect(rows.memories.map((row) => row.origin_queue_id).sort()).toEqual(approved);
    expect(rows.pending).toEqual([]);
    expect(rows.decisions).toHaveLength(10);
  });
});
