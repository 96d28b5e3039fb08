import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { withoutTimings } from "../../facade/worker-pool/testing/without-timings.js";
import { makeTestRepository } from "../../testing/git-repository.js";
import { capturingIO } from "../testing.js";
import { buildEvalVerifier, evalWorkerThreads, makeEvalCommand } from "./eval.js";

/**
 * Records built here: answers against their contexts with figures that match, figures that are off, and
 * claims the context does not hold, so the verdicts differ from record to record.
 */
const records = Array.from({ length: 24 }, (_, i) => {
  const revenue = 100 + i;
  const stated = i % 3 === 0 ? revenue + 7 : revenue;
  const context = `Acme reported revenue of $${revenue} million in ${2000 + i}. Costs were $${40 + i} million. The plant in Ohio employs ${200 + i} people.`;
  const response =
    i % 4 === 1
      ? `Acme's plant in Texas employs ${300 + i} people.`
      : `Acme's revenue was $${stated} million in ${2000 + i}, with costs of $${40 + i} million.`;
  return JSON.stringify({
    id: `r${i}`,
    dataset: "constructed",
    task: "qa",
    context,
    question: null,
    response,
    label: stated === revenue && i % 4 !== 1 ? "supported" : "hallucinated",
    spans: [],
    meta: {},
  });
});

let dir: string;
let data: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-eval-workers-"));
  data = join(dir, "records.jsonl");
  await writeFile(data, records.join("\n"));
});

const io = () => capturingIO(dir).io;

/** The predictions file without its latency column, which differs from run to run. */
const predictionsOf = async (file: string): Promise<string[][]> => {
  const rows = (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((line) => line.split(","));
  const latency = rows[0]?.indexOf("latency_ms") ?? -1;
  expect(latency).toBeGreaterThan(0);
  return rows.map((row) => row.filter((_, column) => column !== latency));
};

describe("eval --concurrency over worker threads", () => {
  it("uses one thread per core but one, up to N, and none when that leaves fewer than two", () => {
    expect(evalWorkerThreads(1, 8)).toBe(0);
    expect(evalWorkerThreads(2, 8)).toBe(2);
    expect(evalWorkerThreads(16, 8)).toBe(7);
    expect(evalWorkerThreads(4, 2)).toBe(0);
    expect(evalWorkerThreads(4, 1)).toBe(0);
  });

  it("verifies in worker threads with the offline layers, and in this thread with a model", async () => {
    const pooled = await buildEvalVerifier({ strict: false, concurrency: 2 }, 3);
    try {
      expect(pooled.workerThreads).toBe(2);
      const result = await pooled.verify({
        text: "Revenue was $5 million.",
        sources: ["Revenue was $5 million."],
      });
      expect(result.passed).toBe(true);
    } finally {
      await pooled.close();
    }
    const withModel = await buildEvalVerifier(
      { strict: false, concurrency: 2, model: "openai-compatible:scripted@http://127.0.0.1:9/v1" },
      3,
    );
    try {
      expect(withModel.workerThreads).toBe(0);
      // A model's calls are what stays in flight in this thread: nothing to tell the user.
      expect(withModel.inThisThread).toBeUndefined();
    } finally {
      await withModel.close();
    }
  });

  it("says why offline checks run in this thread when more than one at a time was asked for on too few cores", async () => {
    const built = await Promise.all([
      buildEvalVerifier({ strict: false, concurrency: 2 }, 2),
      buildEvalVerifier({ strict: false, concurrency: 4 }, 1),
      buildEvalVerifier({ strict: false, concurrency: 1 }, 2),
      buildEvalVerifier({ strict: false, concurrency: 2 }, 3),
    ]);
    try {
      expect(built.map((verifier) => verifier.workerThreads)).toEqual([0, 0, 0, 2]);
      expect(built[0]?.inThisThread).toMatch(/^this machine has 2 cores, .* from 3 /);
      expect(built[1]?.inThisThread).toMatch(/^this machine has 1 core, /);
      // One at a time was asked for, or the pool runs: nothing to say.
      expect(built[2]?.inThisThread).toBeUndefined();
      expect(built[3]?.inThisThread).toBeUndefined();
    } finally {
      await Promise.all(built.map((verifier) => verifier.close()));
    }
  });

  it("prints that note once on stderr, and nothing for one at a time", async () => {
    const command = makeEvalCommand((options) => buildEvalVerifier(options, 2));
    const runWith = async (concurrency: string) => {
      const captured = capturingIO(dir);
      const out = join(dir, `note-${concurrency}`);
      expect(
        await command.run(["--data", data, "--out", out, "-q", "--concurrency", concurrency], captured.io),
      ).toBe(0);
      return captured.err.join("");
    };
    const two = await runWith("2");
    expect(
      two.match(/note: --concurrency 2 runs the checks in this thread: this machine has 2 cores/g),
    ).toHaveLength(1);
    expect(await runWith("1")).not.toMatch(/note:/);
  });

  it("checks a configured repository's citations in its worker threads as this thread does", async () => {
    const repository = await makeTestRepository({ "README.md": "The app.\n" });
    const config = join(dir, "with-repository.json");
    await writeFile(config, JSON.stringify({ repository: repository.directory }));
    const [pooled, inThread] = await Promise.all([
      buildEvalVerifier({ strict: false, concurrency: 2, config }, 3),
      buildEvalVerifier({ strict: false, concurrency: 1, config }, 3),
    ]);
    try {
      expect([pooled.workerThreads, inThread.workerThreads]).toEqual([2, 0]);
      const request = {
        text: "Revenue was $5 million, as commit deadbeef12 records.",
        sources: ["Revenue was $5 million."],
      };
      const [fromPool, fromThread] = await Promise.all([pooled.verify(request), inThread.verify(request)]);
      const citations = fromPool.layersRun.find((layer) => layer.layer === "citations");
      expect(citations?.passed).toBe(false);
      expect(withoutTimings(fromPool)).toEqual(withoutTimings(fromThread));
    } finally {
      await Promise.all([pooled.close(), inThread.close()]);
      await rm(repository.directory, { recursive: true, force: true });
    }
  }, 60_000);

  it("answers the records from worker threads without evidence passages, and `verify` (golden sets) with whole results", async () => {
    const pooled = await buildEvalVerifier({ strict: false, concurrency: 2 }, 3);
    try {
      const request = {
        text: "Revenue was $5 million. The plant employs 300 people.",
        sources: ["Revenue was $5 million."],
      };
      const whole = await pooled.verify(request);
      const lean = await (pooled.verifyRecord ?? pooled.verify)(request);
      expect(whole.claims.some((claim) => claim.evidence.length > 0)).toBe(true);
      expect(whole.layersRun.some((layer) => layer.claims !== undefined)).toBe(true);
      expect(lean.claims.every((claim) => !("evidence" in claim))).toBe(true);
      expect(lean.layersRun.every((layer) => !("claims" in layer))).toBe(true);
      // The rest is the same verification's.
      expect(lean.claims.map((claim) => [claim.verdict, claim.span, claim.issues])).toEqual(
        whole.claims.map((claim) => [claim.verdict, claim.span, claim.issues]),
      );
      expect([lean.verdict, lean.overallConfidence]).toEqual([whole.verdict, whole.overallConfidence]);
    } finally {
      await pooled.close();
    }
  });

  it("gives every record the verdict, score and features one thread gives it", async () => {
    const one = join(dir, "one");
    const two = join(dir, "two");
    // Three cores whatever the machine has, so the second run does spread over two worker threads.
    const threads: number[] = [];
    const command = makeEvalCommand(async (options) => {
      const verifier = await buildEvalVerifier(options, 3);
      threads.push(verifier.workerThreads);
      return verifier;
    });
    expect(await command.run(["--data", data, "--out", one, "-q"], io())).toBe(0);
    expect(await command.run(["--data", data, "--out", two, "-q", "--concurrency", "2"], io())).toBe(0);
    expect(threads).toEqual([0, 2]);
    // What the calibration and the answer combiner are fitted on, read from lean results in the workers.
    for (const file of ["combiner-data.jsonl", "calibration-data.jsonl"]) {
      const written = await readFile(join(one, file), "utf8");
      expect(written.trim().split("\n").length).toBeGreaterThanOrEqual(records.length);
      expect(await readFile(join(two, file), "utf8")).toBe(written);
    }
    const single = await predictionsOf(join(one, "predictions.csv"));
    const spread = await predictionsOf(join(two, "predictions.csv"));
    expect(single.length).toBe(records.length + 1);
    expect(spread).toEqual(single);
    // The records are not all alike: some pass and some fail, so equal files compare real verdicts.
    const passed = single[0]?.indexOf("passed") ?? -1;
    expect(new Set(single.slice(1).map((row) => row[passed]))).toEqual(new Set(["true", "false"]));
  });
});
