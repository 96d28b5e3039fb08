import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageBackends } from "../../../storage/testing.js";
import { findTokensBySymbol } from "./aggregates.js";
import { type EvidenceStore, prepareEvidenceStore } from "./evidence-store.js";

const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describe.each(storageBackends())("findTokensBySymbol on $name", (backend) => {
  let scope: Scope.CloseableScope;
  let store: EvidenceStore;
  beforeAll(async () => {
    scope = await Effect.runPromise(Scope.make());
    const sql = await Effect.runPromise(Scope.extend(backend.open(), scope));
    store = await Effect.runPromise(prepareEvidenceStore(sql));
    // Three contracts call themselves WETH (one in lower case), 300 call themselves FAKE, one is USDC, one has
    // no symbol: a symbol names every contract that uses it, in address order.
    const rows: [string, string | null, number][] = [
      [address(3), "WETH", 18],
      [address(1), "weth", 18],
      [address(2), "WETH", 9],
      [address(9), "USDC", 6],
      [address(10), null, 0],
      ...Array.from({ length: 300 }, (_, at): [string, string, number] => [address(1_000 + at), "FAKE", 18]),
    ];
    await Effect.runPromise(
      store.sql.query(
        `INSERT INTO evidence_tokens (address, symbol, decimals)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[])`,
        [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2])],
      ),
    );
  });
  afterAll(async () => {
    if (scope) await Effect.runPromise(Scope.close(scope, Exit.void));
  });

  it("groups the contracts of each symbol asked for, whatever its case, in address order", async () => {
    const found = await Effect.runPromise(findTokensBySymbol(store.sql, ["weth", "FAKE", "DAI"]));
    expect([...found.keys()].sort()).toEqual(["FAKE", "WETH"]);
    expect(found.get("WETH")?.map((token) => [token.address, token.decimals])).toEqual([
      [address(1), 18],
      [address(2), 9],
      [address(3), 18],
    ]);
    const fakes = found.get("FAKE") ?? [];
    expect(fakes).toHaveLength(300);
    expect(fakes.map((token) => token.address)).toEqual(
      Array.from({ length: 300 }, (_, at) => address(1_000 + at)),
    );
  });

  it("asks nothing for no symbols", async () => {
    expect((await Effect.runPromise(findTokensBySymbol(store.sql, []))).size).toBe(0);
  });
});
