import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { afterAll, describe, expect, it } from "vitest";
import { authenticateApiKey } from "../../server/keys/api-keys.js";
import { makePgliteClient } from "../../storage/pglite-client.js";
import { runCli } from "../run-cli.js";
import { capturingIO } from "../testing.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Who a key authenticates as on the PGlite store `keys create --db data` wrote in `dir`. */
const authenticateIn = (dir: string, key: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* Effect.acquireRelease(makePgliteClient(path.join(dir, "data")), (client) =>
          Effect.ignore(client.close),
        );
        return yield* authenticateApiKey(sql, key);
      }),
    ),
  );

describe("veracity serve", () => {
  it("keys create prints a key once that authenticates as the user on that database", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-serve-"));
    dirs.push(dir);
    const { io: cli, out, err } = capturingIO(dir);
    expect(await runCli(["serve", "keys", "create", "--user", "alice", "--db", "data"], cli)).toBe(0);
    const key = out.join("").trim();
    expect(key).toMatch(/^vk_/);
    expect(err.join("")).toContain("shown once");
    const user = await authenticateIn(dir, key);
    expect(user?.userId).toBe("alice");
    expect(user?.kind).toBe("reviewer");
  }, 60_000);

  it("keys create --agent mints a key of the agent kind", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-serve-"));
    dirs.push(dir);
    const { io: cli, out, err } = capturingIO(dir);
    expect(await runCli(["serve", "keys", "create", "--user", "alice", "--agent", "--db", "data"], cli)).toBe(
      0,
    );
    const key = out.join("").trim();
    expect(err.join("")).toContain("agent key created for alice");
    const found = await authenticateIn(dir, key);
    expect(found).toMatchObject({ userId: "alice", kind: "agent" });
  }, 60_000);

  it.each([
    [["serve", "keys", "create"], "--user is required"],
    [["serve", "keys", "rotate", "--user", "a"], "keys create"],
    [["serve", "--port", "99999"], "--port"],
    [["serve", "--bogus"], "bogus"],
  ])("%j is a usage error", async (argv, message) => {
    const { io: cli, err } = capturingIO(tmpdir());
    expect(await runCli(argv, cli)).toBe(2);
    expect(err.join("")).toContain(message);
  });
});
