import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCrossStoreConsistency } from "../../checks/citations/integrity/cross-store-consistency.js";
import { prepareEvidenceStore } from "../../checks/citations/store/evidence-store.js";
import { chain, writeConstructedChain } from "../../checks/citations/testing/constructed-chain.js";
import { storageBackends } from "../../storage/testing.js";
import { runCliIn } from "../testing.js";

const run = runCliIn;

describe("veracity evidence: logs, receipts, traces and cross-store consistency", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "veracity-evidence-records-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("imports logs, receipts and traces, and reads ERC-20 Transfer logs as token transfers", async () => {
    const exported = path.join(directory, "logs-export");
    await writeConstructedChain(exported, { transfersAs: "logs", withReceiptsAndTraces: true });
    const db = path.join(directory, "logs-store");
    const imported = await run(["evidence", "import", "ethereum", exported, "--db", db], directory);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("logs: 3 read, 0 rejected");
    expect(imported.stdout).toContain("receipts: 1 read, 0 rejected");
    expect(imported.stdout).toContain("traces: 1 read, 0 rejected");

    const answer = path.join(directory, "answer.txt");
    await writeFile(
      answer,
      `[ADDR:${chain.a}] received 4.5 TKN between blocks 100 and 110. ` +
        `The contract was paid in [TX:0x${"05".repeat(32)}] and [TX:0x${"06".repeat(32)}].`,
    );
    const checked = await run(
      ["check", answer, "--source", answer, "--evidence", db, "--layers", "citations", "--format", "json"],
      directory,
    );
    const report = JSON.parse(checked.stdout);
    expect(report.claims.map((claim: { verdict: string }) => claim.verdict)).toEqual([
      "supported",
      "supported",
    ]);
    expect(checked.code).toBe(0);
  }, 60_000);

  it("samples transactions and reports what another store lacks or records differently", async () => {
    const exported = path.join(directory, "export");
    await writeConstructedChain(exported);
    const drifted = path.join(directory, "drifted");
    await writeConstructedChain(drifted);
    const transactions = (await readFile(path.join(drifted, "transactions.jsonl"), "utf8"))
      .trim()
      .split("\n");
    // One transaction lost, one recorded with another value.
    const kept = transactions
      .filter((line) => !line.includes(chain.lateTransfer))
      .map((line) =>
        line.includes(chain.payment) ? line.replace("2000000000000000000", "3000000000000000000") : line,
      );
    await writeFile(path.join(drifted, "transactions.jsonl"), `${kept.join("\n")}\n`);
    const left = path.join(directory, "left");
    const right = path.join(directory, "right");
    const same = path.join(directory, "same");
    for (const [from, db] of [
      [exported, left],
      [drifted, right],
      [exported, same],
    ] as const)
      expect((await run(["evidence", "import", "ethereum", from, "--db", db], directory)).code).toBe(0);

    const agreeing = await run(
      ["evidence", "consistency", "--db", left, "--against", same, "--json"],
      directory,
    );
    expect(JSON.parse(agreeing.stdout)).toMatchObject({
      totalChecked: 4,
      missing: 0,
      mismatched: 0,
      consistencyScore: 1,
    });
    expect(agreeing.code).toBe(0);

    const differing = await run(
      ["evidence", "consistency", "--db", left, "--against", right, "--sample", "1000", "--json"],
      directory,
    );
    const report = JSON.parse(differing.stdout);
    expect(report).toMatchObject({ totalChecked: 4, missing: 1, mismatched: 1, consistencyScore: 0.5 });
    expect(report.mismatches).toEqual(
      expect.arrayContaining([
        { hash: chain.lateTransfer, problem: "missing" },
        { hash: chain.payment, problem: "value" },
      ]),
    );
    expect(differing.code).toBe(1);

    const bad = await run(
      ["evidence", "consistency", "--db", left, "--against", same, "--sample", "0"],
      directory,
    );
    expect(bad.code).toBe(2);
  }, 90_000);

  it.each(storageBackends())(
    "compares a store on $name with a PGlite copy",
    async (backend) => {
      const exported = path.join(directory, `export-${backend.name}`);
      await writeConstructedChain(exported);
      const report = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const source = yield* Effect.flatMap(backend.open(), prepareEvidenceStore);
            yield* source.importEthereumEtl(exported);
            const copy = yield* Effect.flatMap(
              storageBackends()[0]?.open() ?? Effect.die("no PGlite"),
              prepareEvidenceStore,
            );
            yield* copy.importEthereumEtl(exported);
            return yield* checkCrossStoreConsistency(source, copy, 2);
          }),
        ),
      );
      expect(report).toMatchObject({ totalChecked: 2, missing: 0, mismatched: 0, consistencyScore: 1 });
    },
    60_000,
  );
});
