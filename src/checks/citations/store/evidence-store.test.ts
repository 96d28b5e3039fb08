import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageBackends } from "../../../storage/testing.js";
import {
  type BlockRangeChecksum,
  blockRangeChecksum,
  compareChecksums,
} from "../integrity/block-range-checksum.js";
import { fixtureDirectory } from "../testing/fixture-store.js";
import { type EvidenceStore, prepareEvidenceStore } from "./evidence-store.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);
const checksums: Record<string, BlockRangeChecksum> = {};

describe.each(storageBackends())("evidence store on $name", (backend) => {
  let scope: Scope.CloseableScope;
  let store: EvidenceStore;
  beforeAll(async () => {
    scope = await run(Scope.make());
    const sql = await run(Scope.extend(backend.open(), scope));
    store = await run(prepareEvidenceStore(sql));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  it("imports ethereum-etl JSONL and imports it again without duplicates", async () => {
    const first = await run(store.importEthereumEtl(fixtureDirectory));
    expect(first.tables.transactions).toEqual({ read: 6, rejected: 0 });
    await run(store.importEthereumEtl(fixtureDirectory));
    const [row] = await run(
      store.sql.query<{ count: string }>("SELECT count(*) AS count FROM evidence_transactions"),
    );
    expect(row?.count).toBe("6");
  });

  it("keeps wei values beyond 2^53 exact", async () => {
    const hash = "0x7831885ee487449f4766db92e66fa47ab8a27af0beaca3103146e68fb7b4c19a";
    const found = await run(store.findTransactions([hash.toUpperCase().replace("0X", "0x")]));
    expect(found.get(hash)?.value).toBe("44371473389270320");
  });

  it("keeps token amounts beyond 2^64 exact", async () => {
    const transfers = await run(
      store.findTokenTransfers(["0xeb107a40ba73a50c79a9f2026e902d758d1c5e5e211f7a7db1b294f88f118dd0"]),
    );
    const values = transfers
      .get("0xeb107a40ba73a50c79a9f2026e902d758d1c5e5e211f7a7db1b294f88f118dd0")
      ?.map((t) => t.value);
    expect(values).toContain("150188698577042438264952193024");
  });

  it("finds blocks, including blocks only referenced by transactions", async () => {
    const blocks = await run(store.findBlocks(["483920", "17173049", "17173050", "1"]));
    expect([...blocks.keys()].sort()).toEqual(["17173049", "483920"]);
  });

  it("finds addresses seen as sender, recipient or token", async () => {
    const found = await run(
      store.findAddresses([
        "0x2a65aca4d5fc5b5c859090a6c34d164135398226",
        "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2",
        `0x${"0".repeat(40)}`,
      ]),
    );
    expect(found.size).toBe(2);
  });

  it("computes a block-range checksum", async () => {
    const checksum = await run(blockRangeChecksum(store.sql, "0", "20000000"));
    expect(checksum.transactionCount).toBe(6);
    checksums[backend.name] = checksum;
  });

  it("detects drift: a changed value or a missing transaction changes the checksum", async () => {
    const hash = "0x05287a561f218418892ab053adfb3d919860988b19458c570c5c30f51c146f02";
    const before = await run(blockRangeChecksum(store.sql, "0", "20000000"));
    await run(store.sql.query("UPDATE evidence_transactions SET value = value + 1 WHERE hash = $1", [hash]));
    const drifted = await run(blockRangeChecksum(store.sql, "0", "20000000"));
    await run(store.sql.query("UPDATE evidence_transactions SET value = value - 1 WHERE hash = $1", [hash]));
    expect(drifted.checksum).not.toBe(before.checksum);
    expect(compareChecksums(before, drifted)).toEqual(["transaction records differ"]);
    const restored = await run(blockRangeChecksum(store.sql, "0", "20000000"));
    expect(restored.checksum).toBe(before.checksum);
    expect(compareChecksums(before, await run(blockRangeChecksum(store.sql, "0", "483920")))).toContain(
      "transaction count 6 vs 4",
    );
  });

  it("rejects malformed rows with a reason instead of storing them", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "veracity-etl-"));
    try {
      await writeFile(
        path.join(directory, "transactions.csv"),
        `hash,block_number,from_address,to_address,value\n0x12,5,0x${"cd".repeat(20)},,1\n` +
          `0x${"ab".repeat(32)},5,0x${"cd".repeat(20)},,100000000000000000000\n`,
      );
      const summary = await run(store.importEthereumEtl(directory));
      expect(summary.tables.transactions).toEqual({ read: 2, rejected: 1 });
      expect(summary.problems[0]).toContain("hash is not a 32-byte hash");
      const found = await run(store.findTransactions([`0x${"ab".repeat(32)}`]));
      expect(found.get(`0x${"ab".repeat(32)}`)?.value).toBe("100000000000000000000");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("integrity", () => {
  it("gives the same checksum for the same data on every backend", () => {
    const values = Object.values(checksums);
    expect(values.length).toBe(storageBackends().length);
    for (const value of values) expect(value.checksum).toBe(values[0]?.checksum);
  });

  it("names what differs between two checksums", () => {
    const base: BlockRangeChecksum = {
      fromBlock: "1",
      toBlock: "2",
      transactionCount: 3,
      hashAggregate: "a",
      minTimestamp: "10",
      maxTimestamp: "20",
      checksum: "x",
    };
    expect(compareChecksums(base, base)).toEqual([]);
    expect(compareChecksums(base, { ...base, transactionCount: 4, hashAggregate: "b" })).toEqual([
      "transaction count 3 vs 4",
      "transaction records differ",
    ]);
  });
});
