import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeDatasetsCommand } from "../cli/commands/datasets.js";
import { capturingIO } from "../cli/testing.js";
import { datasets } from "./registry.js";
import type { DatasetSpec } from "./spec.js";
import {
  type Behaviour,
  type FixtureServer,
  pinnedToFixtures,
  startFixtureServer,
} from "./testing/fixture-server.js";

const pinned = datasets.map(pinnedToFixtures);
let server: FixtureServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const run = async (
  argv: readonly string[],
  cacheDir: string,
  options: {
    registry?: readonly DatasetSpec[];
    env?: Record<string, string>;
    behaviour?: (path: string) => Behaviour;
    stderrIsTTY?: boolean;
  } = {},
) => {
  server ??= await startFixtureServer(options.behaviour);
  const { io, out, err } = capturingIO(cacheDir, {
    stderrIsTTY: options.stderrIsTTY ?? false,
    env: { VERACITY_CACHE_DIR: cacheDir, VERACITY_DATASETS_MIRROR: server.url, ...options.env },
  });
  const code = await makeDatasetsCommand(options.registry ?? pinned).run(argv, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
};

const freshCache = () => mkdtemp(join(tmpdir(), "veracity-datasets-"));
const jsonLines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
/** Entries of the cache folder: after a failure there must be no dataset folder and no temporary one. */
const cacheEntries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe("veracity datasets fetch against a local fixture server", () => {
  it("converts every dataset, verifies each pinned checksum and stores licence and attribution beside it", async () => {
    const cache = await freshCache();
    const result = await run(["fetch", ...pinned.map((spec) => spec.name)], cache);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("attribution: SummEdits by Philippe Laban");
    for (const spec of pinned) {
      const manifest = JSON.parse(readFileSync(join(cache, spec.name, "manifest.json"), "utf8"));
      expect(manifest.upstream.map((file: { sha256: string }) => file.sha256)).toEqual(
        spec.files.map((file) => file.sha256),
      );
      expect(manifest.upstream.every((file: { pinned: boolean }) => file.pinned)).toBe(true);
      for (const licence of spec.licenceFiles) expect(existsSync(join(cache, spec.name, licence))).toBe(true);
      expect(readFileSync(join(cache, spec.name, "ATTRIBUTION.md"), "utf8")).toContain(spec.commit);
    }
    expect(cacheEntries(cache).sort()).toEqual(pinned.map((spec) => spec.name).sort());
  });

  it("maps each source's labels and fields onto the common form", async () => {
    const cache = await freshCache();
    expect(
      (await run(["fetch", "summedits", "begin", "tatqa", "halueval", "ethereum-etl"], cache)).code,
    ).toBe(0);

    const summedits = jsonLines(join(cache, "summedits", "summedits.jsonl"));
    expect(summedits).toHaveLength(30);
    for (const record of summedits) {
      const meta = record.meta as Record<string, unknown>;
      expect(record.label).toBe(meta.original_label === 1 ? "supported" : "hallucinated");
      expect(meta.is_seed_summary).toBe(String(record.id).endsWith("_og"));
    }
    // A split holds whole documents: the records of one document are never on both sides.
    const splitsByDocument = new Map<unknown, Set<unknown>>();
    for (const record of summedits)
      splitsByDocument.set(
        record.context,
        (splitsByDocument.get(record.context) ?? new Set()).add((record.meta as { split: unknown }).split),
      );
    expect([...splitsByDocument.values()].every((splits) => splits.size === 1)).toBe(true);

    const begin = jsonLines(join(cache, "begin", "begin.jsonl"));
    expect(begin).toHaveLength(12); // the "Generic" row is left out
    expect(begin.some((record) => record.response === "haha")).toBe(false);
    expect(readFileSync(join(cache, "begin", "manifest.json"), "utf8")).toContain('"label \\"Generic\\"": 1');
    for (const record of begin)
      expect(record.label).toBe(
        (record.meta as { original_label: string }).original_label === "Fully attributable"
          ? "supported"
          : "hallucinated",
      );

    const tatqa = jsonLines(join(cache, "tatqa", "tatqa.jsonl"));
    expect(tatqa.map((record) => record.response)).toEqual([
      expect.stringContaining("our allowable incurred costs"),
      "$1,496.5 million",
      "fixed-price type; cost-plus type; time-and-material type",
      "2019",
      "-12.6 million",
      "-22.22%",
    ]);
    const context = String(tatqa[0]?.context);
    expect(context.startsWith("Table:\n |  | Years Ended September 30, | \n | 2019 | 2018 | 2017\n")).toBe(
      true,
    );
    // Paragraphs follow their `order`, whatever their position in the file.
    expect(context.indexOf("Sales by Contract Type")).toBeLessThan(
      context.indexOf("On a fixed-price type contract"),
    );
    expect(tatqa.every((record) => record.label === "supported")).toBe(true);

    const halueval = jsonLines(join(cache, "halueval", "halueval_general.jsonl"));
    expect(halueval).toHaveLength(12);
    for (const record of halueval)
      for (const span of record.spans as { start: number; end: number; text: string }[])
        expect(String(record.response).slice(span.start, span.end)).toBe(span.text);
    expect(halueval.some((record) => (record.spans as unknown[]).length > 0)).toBe(true);

    const transactions = jsonLines(join(cache, "ethereum-etl", "transactions.jsonl"));
    expect(new Set(transactions.map((row) => row.hash)).size).toBe(transactions.length);
    expect(
      transactions.every((row) => typeof row.hash === "string" && String(row.hash).startsWith("0x")),
    ).toBe(true);
  });

  it("shows progress on a terminal, naming which of the sets it is fetching, and clears it before each report", async () => {
    const cache = await freshCache();
    const result = await run(["fetch", "tatqa", "summedits"], cache, { stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^\r\x1b\[2K\[1\/2\] tatqa: /);
    expect(result.stderr).toContain("\r\x1b[2K[2/2] summedits: ");
    expect(result.stderr.endsWith("\r\x1b[2K")).toBe(true);
    expect(result.stdout).not.toMatch(/\r|\x1b/);
  });

  it("shows no progress with --quiet, even on a terminal", async () => {
    const cache = await freshCache();
    const result = await run(["fetch", "tatqa", "--quiet"], cache, { stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  it("reuses an intact cached copy without downloading again", async () => {
    const cache = await freshCache();
    expect((await run(["fetch", "tatqa"], cache)).code).toBe(0);
    const downloads = server?.requests.length;
    const second = await run(["fetch", "tatqa"], cache);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("tatqa: cached");
    expect(server?.requests.length).toBe(downloads);
    const path = await run(["path", "tatqa"], cache);
    expect(path.stdout.trim()).toBe(join(cache, "tatqa", "tatqa.jsonl"));
  });

  it("refuses a corrupted file with a clear message and leaves nothing in the cache", async () => {
    const cache = await freshCache();
    const result = await run(["fetch", "summedits"], cache, {
      behaviour: (path) => (path.endsWith("summedits_samsum.json") ? "corrupt" : "ok"),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /checksum mismatch for data\/summedits\/summedits_samsum\.json: expected sha256 [0-9a-f]{64}, got [0-9a-f]{64}/,
    );
    expect(cacheEntries(cache)).toEqual([]);
    expect((await run(["path", "summedits"], cache)).code).toBe(2);
  });

  it.each<[string, Behaviour, RegExp]>([
    ["a 404", "missing", /HTTP 404/],
    ["an interrupted transfer", "interrupt", /transfer interrupted/],
    ["a server that stops answering", "stall", /no data for 300 ms/],
  ])("fails on %s and leaves nothing in the cache", async (_name, behaviour, message) => {
    const cache = await freshCache();
    const result = await run(["fetch", "halueval"], cache, {
      behaviour: () => behaviour,
      env: { VERACITY_DATASETS_TIMEOUT_MS: "300" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("reports no network when nothing listens at the mirror", async () => {
    const cache = await freshCache();
    const closed = await startFixtureServer();
    const url = closed.url;
    await closed.close();
    const result = await run(["fetch", "begin"], cache, { env: { VERACITY_DATASETS_MIRROR: url } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot connect \(ECONNREFUSED\)/);
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("refuses plain HTTP to another host", async () => {
    const cache = await freshCache();
    const result = await run(["fetch", "begin"], cache, {
      env: { VERACITY_DATASETS_MIRROR: "http://mirror.example" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/over HTTPS/);
  });

  it("refuses files without a pinned checksum unless trusted, then records and prints their digests", async () => {
    const cache = await freshCache();
    const refused = await run(["fetch", "halueval"], cache, { registry: datasets });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no pinned SHA-256 yet.*--trust-unpinned/s);
    expect(server?.requests).toEqual([]);
    expect(cacheEntries(cache)).toEqual([]);
    const trusted = await run(["fetch", "halueval", "--trust-unpinned"], cache, { registry: datasets });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(
      /not pinned, trusted on first use: data\/general_data\.json sha256 [0-9a-f]{64}/,
    );
  });
});
