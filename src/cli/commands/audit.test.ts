import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAuditLog } from "../../audit/audit-log.js";
import { auditEntryForOperation } from "../../audit/entries-for.js";
import { openSqlClient } from "../../storage/open.js";
import { UsageError } from "../command.js";
import { capturingIO } from "../testing.js";
import { auditCommand } from "./audit.js";

let dir: string;
/** The CLI's output, in memory, run in `dir`. */
const inDir = () => capturingIO(dir);

const withClient = <A>(
  work: (client: Effect.Effect.Success<ReturnType<typeof openSqlClient>>) => Effect.Effect<A, unknown>,
) =>
  Effect.runPromise(
    Effect.acquireUseRelease(openSqlClient(join(dir, "store")), work, (client) =>
      Effect.ignore(client.close),
    ),
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-audit-cli-"));
  await withClient((client) =>
    Effect.gen(function* () {
      const log = yield* makeAuditLog(client);
      for (const index of [1, 2, 3])
        yield* log.append(
          auditEntryForOperation({
            operation: "review",
            actor: "cli-test",
            input: index,
            output: { approved: true },
          }),
        );
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("veracity audit verify", () => {
  it("reports an intact trail with exit 0", async () => {
    const { io, out } = inDir();
    expect(await auditCommand.run(["verify", "--db", "store"], io)).toBe(0);
    expect(out.join("")).toMatch(
      /^audit trail intact: 3 entries, hash chain verified\nlast entry \(keep it as --anchor\): 3:[0-9a-f]{64}\n$/,
    );
  });

  it("checks the chain against an anchor printed by an earlier run", async () => {
    const first = inDir();
    await auditCommand.run(["verify", "--db", "store", "--json"], first.io);
    const { sequence, entryHash } = JSON.parse(first.out.join("")).last;
    expect(
      await auditCommand.run(["verify", "--db", "store", "--anchor", `${sequence}:${entryHash}`], inDir().io),
    ).toBe(0);
    // An anchor the log no longer holds: a later entry than the log has (its tail was deleted).
    const { io, out } = inDir();
    expect(await auditCommand.run(["verify", "--db", "store", "--anchor", `9:${entryHash}`], io)).toBe(1);
    expect(out.join("")).toMatch(/truncated: entry 9, recorded in the anchor, is no longer in the log/);
    await expect(
      auditCommand.run(["verify", "--db", "store", "--anchor", "3:xyz"], inDir().io),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it("reports an edited entry with exit 1", async () => {
    await withClient((client) =>
      client.query("UPDATE veracity_audit_log SET actor = 'mallory' WHERE sequence = 2"),
    );
    const { io, out } = inDir();
    expect(await auditCommand.run(["verify", "--db", "store", "--json"], io)).toBe(1);
    const report = JSON.parse(out.join(""));
    expect(report).toMatchObject({ intact: false, checked: 3 });
    expect(report.problems[0]).toMatchObject({ sequence: 2, kind: "edited" });
  });

  it.each([[["verify", "--db", "missing-store"]], [["list"]], [["verify", "extra"]]])(
    "is a usage error: %j",
    async (argv) => {
      await expect(auditCommand.run(argv, inDir().io)).rejects.toBeInstanceOf(UsageError);
    },
  );
});
