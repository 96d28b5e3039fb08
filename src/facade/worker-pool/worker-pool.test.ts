import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlatt } from "../../calibration/platt.js";
import {
  CalibrationError,
  InputError,
  VerificationError,
  VerificationTimeoutError,
} from "../../model/errors.js";
import type { VerificationResult } from "../../model/result.js";
import { makeTestRepository, type TestRepository } from "../../testing/git-repository.js";
import type { VerificationEvent } from "../../verification/events.js";
import { createVerifier } from "../create-verifier.js";
import { verifyPrepared } from "../prepared-answer.js";
import {
  createWorkerPoolVerifier,
  defaultVerifyWorkers,
  type WorkerPoolOptions,
  type WorkerPoolVerifier,
} from "./create-worker-pool-verifier.js";
import { compiledUrlOf } from "./current-build.js";
import { VerifierBusyError } from "./errors.js";
import { runAsQueueOwner } from "./queue-owner.js";
import { plantChecks } from "./testing/plant-checks.js";
import { withoutTimings } from "./testing/without-timings.js";
import { withoutRefusedOptions, workerExecArgv } from "./worker-slots.js";

const sources = [
  "The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It is 330 metres tall. " +
    "Revenue rose from $4.2 million in 2022 to $5.0 million in 2023.",
];
const requests = [
  { text: "The Eiffel Tower was completed in 1889. It is 330 metres tall.", sources },
  { text: "The Eiffel Tower was completed in 1925 in Berlin. It is 410 metres tall.", sources },
  { text: "Revenue rose from $4.2 million in 2022 to $5.0 million in 2023.", sources },
  { text: "Revenue grew 25% to $5.3 million.", sources, riskOverride: "high" as const },
];

const utf8 = new TextDecoder();

/** The grounding layer's calibrated score and the raw score it was mapped from. */
const groundingOf = (result: VerificationResult) => {
  const layer = result.layersRun.find((each) => each.layer === "grounding");
  if (layer === undefined) throw new Error("grounding did not run");
  return { score: layer.score, raw: layer.details.rawScore as number };
};

/** Runs `use` with a new pool built from `options`, closed afterwards whatever happens. */
const withPool = async (options: WorkerPoolOptions, use: (pool: WorkerPoolVerifier) => Promise<void>) => {
  const pool = createWorkerPoolVerifier(options);
  try {
    await use(pool);
  } finally {
    await pool.close();
  }
};

describe("defaultVerifyWorkers", () => {
  it("leaves one core to the main thread from three cores up, uses both of two, and none of one", () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((cores) => defaultVerifyWorkers(cores))).toEqual([0, 2, 2, 3, 4, 4, 4]);
  });
});

describe("createWorkerPoolVerifier", () => {
  const settings = { maxTextLength: 2_000 };
  const pool = createWorkerPoolVerifier({ workers: 2, settings });
  const inThread = createVerifier({ settings });
  afterAll(async () => {
    await pool.close();
    await inThread.close();
  });

  it("gives the same results as a verifier in the caller's thread", async () => {
    const [fromPool, fromThread] = await Promise.all([
      Promise.all(requests.map((request) => pool.verify(request))),
      Promise.all(requests.map((request) => inThread.verify(request))),
    ]);
    expect(fromPool.map((result) => result.passed)).toEqual([true, false, true, false]);
    expect(withoutTimings(fromPool)).toEqual(withoutTimings(fromThread));
  });

  it("prepares answers in the workers exactly as in the caller's thread", async () => {
    for (const layerClaims of [false, true]) {
      const [fromPool, fromThread] = await Promise.all(
        [pool, inThread].map((verifier) =>
          verifyPrepared(verifier, requests[1] ?? { text: "" }, { layerClaims }),
        ),
      );
      expect(fromPool?.outputHash).toBe(fromThread?.outputHash);
      expect(withoutTimings(JSON.parse(utf8.decode(fromPool?.body)))).toEqual(
        withoutTimings(JSON.parse(utf8.decode(fromThread?.body))),
      );
      expect(withoutTimings(fromPool?.summary)).toEqual(withoutTimings(fromThread?.summary));
    }
  });

  it("runs single layers and assesses risk in the workers", async () => {
    const layer = await pool.runLayer("numbers", requests[1]?.text ?? "", undefined, sources);
    expect(layer).toEqual({
      ...(await inThread.runLayer("numbers", requests[1]?.text ?? "", undefined, sources)),
      latencyMs: layer.latencyMs,
    });
    expect(await pool.assessRisk("What dose of ibuprofen should I take?")).toBe(
      await inThread.assessRisk("What dose of ibuprofen should I take?"),
    );
  });

  it("passes its settings to the workers and rebuilds their typed errors in the caller's thread", async () => {
    const tooLong = { text: "The tower is tall. ".repeat(200), sources };
    const [fromPool, fromThread] = await Promise.all(
      [pool, inThread].map((verifier) => verifier.verify(tooLong).catch((failure: unknown) => failure)),
    );
    expect(fromPool).toBeInstanceOf(InputError);
    expect(fromPool).toMatchObject({ _tag: "InputError", code: (fromThread as InputError).code });
    expect((fromPool as Error).message).toBe((fromThread as Error).message);
    const malformed = await pool.verify({ text: 42 } as never).catch((failure: unknown) => failure);
    expect(malformed).toMatchObject({ _tag: "InputError", code: "INVALID_REQUEST" });
  });

  it("forwards the workers' events to subscribers, and stops after unsubscribe", async () => {
    const events: VerificationEvent[] = [];
    const unsubscribe = await pool.subscribe((event) => {
      events.push(event);
    });
    await pool.verify(requests[1] ?? { text: "" });
    expect(events.map((event) => event.type)).toContain("verification.completed");
    const completed = events.find((event) => event.type === "verification.completed");
    expect(completed?.payload).toMatchObject({ passed: false, layersRun: 2 });
    unsubscribe();
    const seen = events.length;
    await pool.verify(requests[0] ?? { text: "" });
    expect(events).toHaveLength(seen);
  });

  it("warms every worker up on made-up answers that no subscriber sees, then verifies as before", async () => {
    const events: VerificationEvent[] = [];
    const unsubscribe = await pool.subscribe((event) => {
      events.push(event);
    });
    try {
      const warmed = await pool.warmUp({ maxVerifications: 3 });
      expect(warmed).toMatchObject({ workers: 2, verifications: 6 });
      expect(warmed.stoppedBy).toBeUndefined();
      expect(events).toEqual([]);
      const after = await pool.verify(requests[0] ?? { text: "" });
      expect(after.passed).toBe(true);
      expect(events.map((event) => event.type)).toContain("verification.completed");
    } finally {
      unsubscribe();
    }
  });

  it("keeps answering while many calls are in flight", async () => {
    const many = Array.from({ length: 40 }, (_, index) => requests[index % requests.length] ?? { text: "" });
    const results = await Promise.all(many.map((request) => pool.verify(request)));
    expect(results.map((result) => result.passed)).toEqual(
      many.map((_, index) => [true, false, true, false][index % 4]),
    );
  });
});

/** A worker module that fails while loading, as a broken install would. */
const brokenWorker = compiledUrlOf(new URL("./testing/broken-worker.ts", import.meta.url));
/** A worker whose verification of the text "spin" never ends. */
const spinningWorker = compiledUrlOf(new URL("./testing/spinning-worker.ts", import.meta.url));

describe("calls of several owners in one worker", () => {
  // Each call takes a few milliseconds: long enough that calls sent together wait in the worker's queue.
  const call = plantChecks(120, 2);

  /** Sends `flood` calls as one owner and then one as another; answers the owners in the order they settled. */
  const settledOrder = async (pool: WorkerPoolVerifier, flood: number, otherOwner: string) => {
    const settled: string[] = [];
    const floodCalls = runAsQueueOwner("flood", () =>
      Array.from({ length: flood }, (_, index) =>
        pool.verify(call(index)).then(() => settled.push(`flood-${index}`)),
      ),
    );
    const other = runAsQueueOwner(otherOwner, () =>
      pool.verify(call(flood)).then(() => settled.push("other")),
    );
    await Promise.all([...floodCalls, other]);
    return settled;
  };

  it("runs another owner's call among the first, not behind every call an owner sent before it", async () => {
    await withPool({ workers: 1 }, async (pool) => {
      const settled = await settledOrder(pool, 12, "other");
      // The worker may have started the first one or two before the other owner's arrived; never more.
      expect(settled.indexOf("other")).toBeLessThanOrEqual(2);
      // Each owner's own calls keep their order.
      expect(settled.filter((name) => name !== "other")).toEqual(
        Array.from({ length: 12 }, (_, index) => `flood-${index}`),
      );
    });
  });

  it("runs one owner's calls in the order they were sent", async () => {
    await withPool({ workers: 1 }, async (pool) => {
      const settled = await settledOrder(pool, 12, "flood");
      expect(settled).toEqual([...Array.from({ length: 12 }, (_, index) => `flood-${index}`), "other"]);
    });
  });
});

describe("a pool with a repository's citations", () => {
  let repository: TestRepository;
  beforeAll(async () => {
    repository = await makeTestRepository({ "README.md": "The app.\n" });
  });
  afterAll(async () => {
    await rm(repository.directory, { recursive: true, force: true });
  });
  const citing = () => ({
    text: `The Eiffel Tower was completed in 1889 (commit ${repository.commit.slice(0, 10)}). It is 330 metres tall (commit deadbeef12).`,
    sources,
  });
  const layersOf = (result: VerificationResult) => result.layersRun.map((layer) => layer.layer);

  it("checks citations in its workers, and verifies with the evidence layers alone through evidenceLayersOnly", async () => {
    const plain = createWorkerPoolVerifier({ workers: 1 });
    const inThread = createVerifier();
    const events: VerificationEvent[] = [];
    try {
      await withPool(
        { workers: 2, citations: { git: { repository: repository.directory } } },
        async (pool) => {
          const unsubscribe = await pool.subscribe((event) => {
            events.push(event);
          });
          const cited = await pool.verify(citing());
          expect(layersOf(cited)).toContain("citations");
          // The missing commit fails the answer that the evidence layers alone pass.
          expect(cited.passed).toBe(false);
          const evidenceOnly = await pool.evidenceLayersOnly.verify(citing());
          expect(layersOf(evidenceOnly)).not.toContain("citations");
          expect(evidenceOnly.passed).toBe(true);
          expect(withoutTimings(evidenceOnly)).toEqual(withoutTimings(await plain.verify(citing())));
          expect(withoutTimings(evidenceOnly)).toEqual(withoutTimings(await inThread.verify(citing())));
          const prepared = await verifyPrepared(pool.evidenceLayersOnly, citing(), { layerClaims: false });
          expect(JSON.parse(utf8.decode(prepared.body)).layersRun).toHaveLength(
            evidenceOnly.layersRun.length,
          );
          const lean = await pool.evidenceLayersOnly.verifyLean(citing());
          expect(lean.layersRun.map((layer) => layer.layer)).not.toContain("citations");
          expect((await pool.runLayer("citations", citing().text)).passed).toBe(false);
          await expect(pool.evidenceLayersOnly.runLayer("citations", citing().text)).rejects.toBeInstanceOf(
            VerificationError,
          );
          // One subscription sees the events of both verifiers of each worker.
          expect(events.filter((event) => event.type === "verification.completed")).toHaveLength(4);
          unsubscribe();
          // Both views share the pool: closing one closes it.
          expect(pool.evidenceLayersOnly.subscribe).toBe(pool.subscribe);
          await pool.evidenceLayersOnly.close();
          await expect(pool.verify(citing())).rejects.toBeInstanceOf(VerificationError);
        },
      );
    } finally {
      await plain.close();
      await inThread.close();
    }
  }, 60_000);

  it("applies a calibration update to the verifiers of both kinds in every worker", async () => {
    const model = { a: 6, b: -2 };
    await withPool({ workers: 1, citations: { git: { repository: repository.directory } } }, async (pool) => {
      await pool.updateCalibration({ grounding: model });
      for (const result of [await pool.verify(citing()), await pool.evidenceLayersOnly.verify(citing())]) {
        const grounding = groundingOf(result);
        expect(grounding.score).toBeCloseTo(applyPlatt(model, grounding.raw), 12);
        expect(grounding.score).not.toBeCloseTo(grounding.raw, 2);
      }
    });
  }, 60_000);
});

describe("a worker that dies", () => {
  it("fails its in-flight call with a VerificationError, never a pass, and is replaced", async () => {
    const options = {
      workers: 1,
      // Loaded from its TypeScript source through tsx whether or not the build is current: the other tests start
      // compiled workers when they can (current-build.ts), so this one keeps the sources' path covered.
      workerUrl: new URL("./testing/crashing-worker.ts", import.meta.url),
    };
    await withPool(options, async (pool) => {
      const crashed = await pool
        .verify({ text: "crash the worker", sources })
        .catch((error: unknown) => error);
      expect(crashed).toBeInstanceOf(VerificationError);
      expect(String((crashed as Error).message)).toMatch(/worker stopped \(exit code 70\)/);
      const after = await pool.verify(requests[0] ?? { text: "" });
      expect(after.passed).toBe(true);
    });
  });

  it("stops a call past its deadline by terminating its worker; the worker's other calls still complete", async () => {
    const options = { workers: 1, callTimeoutMs: 1_500, workerUrl: spinningWorker };
    await withPool(options, async (pool) => {
      await pool.verify(requests[0] ?? { text: "" });
      const started = Date.now();
      const [spun, queued] = await Promise.all([
        pool.verify({ text: "spin", sources }).then(
          () => "answered",
          (error: unknown) => ({ error, after: Date.now() - started }),
        ),
        pool.verify(requests[1] ?? { text: "" }),
      ]);
      expect(spun).toMatchObject({ error: expect.any(VerificationTimeoutError) });
      // timing holds under load: the pool stops the call at its 1.5 s deadline; the bound leaves 3.5 s past it.
      // Stopped at its deadline, not whenever the endless loop would have ended.
      expect((spun as { after: number }).after).toBeLessThan(5_000);
      expect(queued.passed).toBe(false);
      const after = await pool.verify(requests[0] ?? { text: "" });
      expect(after.passed).toBe(true);
    });
  });

  it("stops the pool with a typed error when workers cannot start", async () => {
    await withPool({ workers: 1, workerUrl: brokenWorker }, async (pool) => {
      const first = await pool.verify(requests[0] ?? { text: "" }).catch((error: unknown) => error);
      expect(first).toBeInstanceOf(VerificationError);
      await expect
        .poll(() => pool.verify(requests[0] ?? { text: "" }).catch((error: Error) => error.message), {
          timeout: 15_000,
        })
        .toMatch(/fail to start/);
    });
  });

  it("applies a calibration update in every worker, and in the replacement of a worker stopped at its deadline", async () => {
    const pool = createWorkerPoolVerifier({
      workers: 1,
      callTimeoutMs: 1_500,
      workerUrl: spinningWorker,
    });
    // A map that turns any raw grounding score into a confidence far from it.
    const model = { a: 6, b: -2 };
    try {
      const before = groundingOf(await pool.verify(requests[0] ?? { text: "" }));
      expect(before.score).toBe(before.raw);
      await pool.updateCalibration({ grounding: model });
      const after = groundingOf(await pool.verify(requests[0] ?? { text: "" }));
      expect(after.score).toBeCloseTo(applyPlatt(model, after.raw), 12);
      expect(after.score).not.toBeCloseTo(after.raw, 2);
      await expect(pool.verify({ text: "spin", sources })).rejects.toBeInstanceOf(VerificationTimeoutError);
      const replaced = groundingOf(await pool.verify(requests[0] ?? { text: "" }));
      expect(replaced.score).toBeCloseTo(applyPlatt(model, replaced.raw), 12);
      await expect(pool.updateCalibration({ grounding: { a: Number.NaN, b: 0 } })).rejects.toBeInstanceOf(
        CalibrationError,
      );
    } finally {
      await pool.close();
    }
  });

  it("refuses calls past its queue limit with VerifierBusyError, and answers the rest", async () => {
    const pool = createWorkerPoolVerifier({ workers: 1, maxPendingPerWorker: 3 });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () =>
          pool.verify(requests[0] ?? { text: "" }).then(
            (result) => result.passed,
            (error: unknown) => error,
          ),
        ),
      );
      expect(outcomes.slice(0, 3)).toEqual([true, true, true]);
      for (const refused of outcomes.slice(3)) expect(refused).toBeInstanceOf(VerifierBusyError);
      expect((await pool.verify(requests[0] ?? { text: "" })).passed).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it("refuses calls once closed, and a pool needs a worker", async () => {
    const pool = createWorkerPoolVerifier({ workers: 1 });
    await pool.close();
    await expect(pool.verify(requests[0] ?? { text: "" })).rejects.toBeInstanceOf(VerificationError);
    expect(() => createWorkerPoolVerifier({ workers: 0 })).toThrow(RangeError);
  });
});

describe("workerExecArgv", () => {
  it("keeps the parent's loaders and flags but not its inline entry point", () => {
    expect(
      workerExecArgv(["--import", "tsx", "--input-type=module", "-e", "code", "--enable-source-maps"]),
    ).toEqual(["--import", "tsx", "--enable-source-maps"]);
    expect(
      workerExecArgv(["--conditions", "development", "-p", "1", "--eval=x", "--input-type", "module"]),
    ).toEqual(["--conditions", "development"]);
  });
});

describe("withoutRefusedOptions", () => {
  it("drops the options Node's refusal lists, and a value written apart from its option", () => {
    const message =
      "Initiated Worker with invalid execArgv flags: --max-semi-space-size=64, --max-old-space-size, --title";
    expect(
      withoutRefusedOptions(
        ["--import", "tsx", "--max-semi-space-size=64", "--max-old-space-size", "4096", "--title", "svc"],
        message,
      ),
    ).toEqual(["--import", "tsx"]);
    expect(withoutRefusedOptions(["--enable-source-maps"], "something else")).toEqual([
      "--enable-source-maps",
    ]);
  });
});

describe("the pool's warm-up, bounded", () => {
  it("keeps a warm-up within half its call deadline, so no worker is stopped for it", async () => {
    await withPool({ workers: 1, callTimeoutMs: 4_000 }, async (pool) => {
      // Asked for a minute: past the 4 s deadline the call would fail and its worker be replaced.
      const warmed = await pool.warmUp({ maxMs: 60_000, maxVerifications: 100_000 });
      expect(warmed.stoppedBy).toBeUndefined();
      expect(warmed.verifications).toBeGreaterThan(0);
    });
  });

  it("ends every worker's warm-up at its signal, and answers the calls sent meanwhile", async () => {
    await withPool({ workers: 2 }, async (pool) => {
      // Both workers ready, so the warm-up is under way in each when the call and the signal come.
      await Promise.all(requests.map((request) => pool.verify(request)));
      const stop = new AbortController();
      // Asked for a minute: a worker that missed the signal would make this test time out.
      const warming = pool.warmUp({ maxMs: 60_000, maxVerifications: 1_000_000, signal: stop.signal });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const answered = pool.verify(requests[1] as (typeof requests)[number]);
      stop.abort("a caller arrived");
      expect((await answered).passed).toBe(false);
      const warmed = await warming;
      expect(warmed).toMatchObject({ workers: 2, stoppedBy: "a caller arrived" });
      expect(warmed.verifications).toBeGreaterThan(0);
      // A signal already aborted sends no warm-up at all.
      expect(await pool.warmUp({ signal: stop.signal })).toEqual({
        workers: 0,
        verifications: 0,
        ms: 0,
        stoppedBy: "a caller arrived",
      });
    });
  }, 40_000);

  it("reports a warm-up its worker could not run, and never rejects", async () => {
    await withPool({ workers: 1, workerUrl: brokenWorker }, async (pool) => {
      const warmed = await pool.warmUp({ maxVerifications: 2 });
      expect(warmed).toMatchObject({ workers: 1, verifications: 0 });
      expect(warmed.stoppedBy).toMatch(/worker/);
    });
  });
});
