/**
 * A separate OS process for the store's cross-process tests (its compiled copy when the build is current, else
 * through `node --import tsx`: see current-build.ts). Modes:
 * `enqueue` puts items in a PGlite or PostgreSQL queue and exits; `race` waits for "go" on stdin, then fires
 * approve/reject calls in parallel and prints their outcomes as JSON.
 */
import { once } from "node:events";
import { Effect } from "effect";
import { makePgliteClient } from "../../storage/pglite-client.js";
import { makePostgresClient } from "../../storage/postgres-client.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import { migrateMemoryStore } from "../store/sql-memory-layer.js";
import { makeSqlReviewQueue } from "../store/sql-review-queue.js";

interface WorkerArgs {
  readonly mode: "enqueue" | "race";
  readonly target:
    | { readonly kind: "pglite"; readonly dataDir: string }
    | { readonly kind: "postgres"; readonly url: string; readonly schema: string };
  readonly userId: string;
  readonly claims?: readonly string[];
  readonly queueIds?: readonly string[];
  readonly calls?: number;
  readonly offset?: number;
}

const args = JSON.parse(process.argv[2] ?? "{}") as WorkerArgs;

const open = (): Effect.Effect<SqlClientService, unknown> =>
  args.target.kind === "pglite"
    ? makePgliteClient(args.target.dataDir)
    : makePostgresClient(args.target.url, { schema: args.target.schema, max: 8 });

const evidence = (claim: string) => ({
  claim,
  captureTime: new Date(),
  confidence: "medium" as const,
  metadata: {},
});

const program = Effect.gen(function* () {
  const sql = yield* open();
  yield* migrateMemoryStore(sql);
  const queue = makeSqlReviewQueue(sql);
  if (args.mode === "enqueue") {
    const items = yield* Effect.forEach(args.claims ?? [], (claim) =>
      queue.enqueue({
        userId: args.userId,
        content: claim,
        memoryType: "fact",
        source: "ai_synthesis",
        evidence: evidence(claim),
        validation: {
          tier: "flag-review",
          approved: false,
          reason: "Ungrounded assertion needs verification",
          evidence: evidence(claim),
          checksPassed: [],
          checksFailed: [],
        },
      }),
    );
    process.stdout.write(`${JSON.stringify(items.map((item) => item.queueId))}\n`);
  } else {
    process.stdout.write("ready\n");
    yield* Effect.promise(() => once(process.stdin, "data"));
    const ids = args.queueIds ?? [];
    const calls = Array.from({ length: args.calls ?? 0 }, (_, i) => {
      const queueId = ids[(i + (args.offset ?? 0)) % ids.length]!;
      // Each item gets approvals and rejections from both processes.
      const decide: Effect.Effect<string, { readonly _tag: string }> =
        (Math.floor(i / ids.length) + (args.offset ?? 0)) % 2 === 0
          ? queue.approve(queueId, args.userId).pipe(Effect.as("approve"))
          : queue.reject(queueId, args.userId, "rejected in the race").pipe(Effect.as("reject"));
      return decide.pipe(
        Effect.map((action) => ({ queueId, outcome: action })),
        Effect.catchAll((error) => Effect.succeed({ queueId, outcome: error._tag })),
      );
    });
    const outcomes = yield* Effect.all(calls, { concurrency: "unbounded" });
    process.stdout.write(`${JSON.stringify(outcomes)}\n`);
  }
  yield* sql.close;
});

Effect.runPromise(program).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
