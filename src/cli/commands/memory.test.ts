import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../command.js";
import { capturingIO } from "../testing.js";
import { auditCommand } from "./audit.js";
import { memoryCommand } from "./memory.js";

describe("veracity memory", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "veracity-memory-cli-"));
    await mkdir(path.join(directory, "docs/adrs"), { recursive: true });
    await writeFile(
      path.join(directory, "docs/adrs/ADR-003-storage.md"),
      "# ADR-003\nWe use Pixeltable for memory storage.\n",
    );
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const run = async (argv: string[], stdin = "") => {
    const { io, out, err } = capturingIO(directory, { stdin });
    const code = await memoryCommand.run(argv, io);
    return { code, out: out.join(""), err: err.join("") };
  };

  it("ingests, queues, lists, approves, rejects and searches over the default embedded store", async () => {
    const stored = await run([
      "ingest",
      "Per ADR-003, we use Pixeltable for memory storage",
      "--user",
      "ana",
      "--source",
      "ai_synthesis",
    ]);
    expect(stored).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^stored .+: Has verified citation/),
    });

    const blocked = await run(["ingest", "I think we should use Redis", "--user", "ana"]);
    expect(blocked.code).toBe(1);
    expect(blocked.out).toContain("blocked: Contains personal speculation");
    expect(blocked.out).toContain("failed: hedge_words_detected: I think");

    const first = await run(
      ["ingest", "-", "--user", "ana", "--source", "ai_synthesis", "--json"],
      "The API uses OAuth2\n",
    );
    const second = await run([
      "ingest",
      "The service uses PostgreSQL 15",
      "--user",
      "ana",
      "--source",
      "conversation",
      "--json",
    ]);
    expect([first.code, second.code]).toEqual([1, 1]);
    const firstId = JSON.parse(first.out).pending.queueId as string;
    const secondId = JSON.parse(second.out).pending.queueId as string;

    const listed = await run(["pending", "--user", "ana"]);
    expect(listed.out).toContain(firstId);
    expect(listed.out).toContain(secondId);
    expect((await run(["pending", "--user", "eve"])).out).toBe("no pending memories\n");

    const stolen = await run(["approve", firstId, "--user", "eve"]);
    expect(stolen.code).toBe(2);
    expect(stolen.err).toContain(`no pending review item ${firstId}`);

    expect((await run(["approve", firstId, "--user", "ana"])).out).toMatch(/^approved: stored /);
    expect((await run(["reject", secondId, "--user", "ana", "--reason", "we use 16"])).out).toBe(
      `rejected ${secondId}\n`,
    );
    expect((await run(["pending", "--user", "ana"])).out).toBe("no pending memories\n");

    const found = await run(["search", "OAuth2", "--user", "ana"]);
    expect(found.out).toContain("The API uses OAuth2");
    expect((await run(["search", "OAuth2", "--user", "eve"])).out).toBe("no memories found\n");

    // Four ingestion decisions and two review actions reached the hash-chained trail of the same store; the
    // refused approval by eve did not.
    const { io, out } = capturingIO(directory);
    expect(await auditCommand.run(["verify"], io)).toBe(0);
    expect(out.join("")).toContain("audit trail intact: 6 entries, hash chain verified");
  });

  it.each([
    [["ingest", "a claim"]],
    [["ingest", "--user", "ana"]],
    [["reject", "some-id", "--user", "ana"]],
    [["ingest", "x", "--user", "ana", "--type", "rumour"]],
    [["unknown"]],
    [["pending", "--user", "ana", "--bogus"]],
  ])("usage errors: %j", async (argv) => {
    await expect(run(argv)).rejects.toBeInstanceOf(UsageError);
  });

  it("bad input is exit 2 with a message", async () => {
    const result = await run(["ingest", "x", "--user", "ana", "--valid-until", "not a date"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("invalid memory claim");
  });
});
