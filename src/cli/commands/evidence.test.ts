import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureDirectory } from "../../checks/citations/testing/fixture-store.js";
import { UsageError } from "../command.js";
import { capturingIO } from "../testing.js";
import { evidenceCommand } from "./evidence.js";

describe("veracity evidence", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "veracity-evidence-cli-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("imports an ethereum-etl directory into a PGlite store and checksums a block range", async () => {
    const db = path.join(directory, "store");
    const imported = capturingIO(directory);
    expect(await evidenceCommand.run(["import", "ethereum", fixtureDirectory, "--db", db], imported.io)).toBe(
      0,
    );
    expect(imported.out.join("")).toContain("transactions: 6 read, 0 rejected");

    const summed = capturingIO(directory);
    expect(
      await evidenceCommand.run(
        ["checksum", "--db", db, "--from", "0", "--to", "99999999", "--json"],
        summed.io,
      ),
    ).toBe(0);
    expect(JSON.parse(summed.out.join(""))).toMatchObject({ transactionCount: 6 });
  });

  it.each([
    [["import", "bitcoin", "x"]],
    [["import", "ethereum"]],
    [["checksum", "--from", "1"]],
    [["frobnicate"]],
  ])("rejects %j as a usage error", async (argv) => {
    await expect(evidenceCommand.run(argv, capturingIO(directory).io)).rejects.toBeInstanceOf(UsageError);
  });

  it("exits 2 with a message when the export directory has no evidence files", async () => {
    const { io, err } = capturingIO(directory);
    expect(await evidenceCommand.run(["import", "ethereum", directory, "--db", "memory://"], io)).toBe(2);
    expect(err.join("")).toContain("no blocks, transactions");
  });
});
