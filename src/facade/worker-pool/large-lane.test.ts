import { type ResourceLimits, Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { VerificationError, VerificationTimeoutError } from "../../model/errors.js";
import type { VerificationRequest } from "../../model/request.js";
import { createVerifier } from "../create-verifier.js";
import {
  callChars,
  createWorkerPoolVerifier,
  defaultWorkerResourceLimits,
  type WorkerPoolOptions,
  type WorkerPoolVerifier,
} from "./create-worker-pool-verifier.js";
import { compiledUrlOf } from "./current-build.js";
import { VerifierBusyError } from "./errors.js";
import { evidenceFingerprint } from "./evidence-routing.js";
import type { HeldEvent, LaneWorkerAnswer } from "./testing/lane-worker.js";
import { withoutTimings } from "./testing/without-timings.js";

// Calls of 1,000 characters or more are large in these pools; the lane worker answers with its thread's id.
const largeCallChars = 1_000;
const laneWorker = compiledUrlOf(new URL("./testing/lane-worker.ts", import.meta.url));
const small: VerificationRequest = { text: "a small answer", sources: ["a small source"] };
/** A request whose source alone makes it large; `text` says what the lane worker does with it. */
const large = (text: string): VerificationRequest => ({ text, sources: ["x".repeat(largeCallChars)] });

/** A pool of the real worker whose large lane takes `realLargeRequest`, and the settings of both. */
const realLanePool = { workers: 1, largeCallChars: 500, settings: { maxTextLength: 2_000 } };
/** A request the real worker verifies in its large lane, and fails: its year contradicts the source's. */
const realLargeRequest: VerificationRequest = {
  text: "The Eiffel Tower was completed in 1925. It is 330 metres tall.",
  sources: [
    "The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It is 330 metres tall. ".repeat(8),
  ],
};

const lanePool = (options: Partial<WorkerPoolOptions> = {}): WorkerPoolVerifier =>
  createWorkerPoolVerifier({ workers: 1, largeCallChars, workerUrl: laneWorker, ...options });

/** What the lane worker answered (it answers every call with its thread's id and calibration). */
const answerOf = (answer: Promise<unknown>): Promise<LaneWorkerAnswer> => answer as Promise<LaneWorkerAnswer>;

/** The heap limits a worker thread started without any reports (V8's defaults on this machine). */
const limitsOfPlainWorker = (): Promise<ResourceLimits> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(
      "const { parentPort, resourceLimits } = require('node:worker_threads'); parentPort.postMessage(resourceLimits);",
      { eval: true },
    );
    worker.once("message", (limits: ResourceLimits) => {
      void worker.terminate();
      resolve(limits);
    });
    worker.once("error", reject);
  });

/** A function that resolves with the next held verification: its thread, and the gate that lets it go. */
const watchHeld = async (pool: WorkerPoolVerifier): Promise<() => Promise<HeldEvent["payload"]>> => {
  const seen: HeldEvent["payload"][] = [];
  const waiting: ((held: HeldEvent["payload"]) => void)[] = [];
  await pool.subscribe((event) => {
    const held = event as unknown as HeldEvent;
    if (held.type !== "test.held") return;
    const waiter = waiting.shift();
    if (waiter === undefined) seen.push(held.payload);
    else waiter(held.payload);
  });
  return () =>
    new Promise((resolve) => {
      const first = seen.shift();
      if (first === undefined) waiting.push(resolve);
      else resolve(first);
    });
};

const release = (held: HeldEvent["payload"]) => {
  Atomics.store(held.gate, 0, 1);
  Atomics.notify(held.gate, 0);
};

/** The call's answer, and whether `other` had settled when it came. */
const settledOrder = async (call: Promise<unknown>, other: { settled: boolean }) => {
  const answer = await answerOf(call);
  return { answer, otherSettled: other.settled };
};

const tracked = (call: Promise<unknown>) => {
  const state = { settled: false, answer: answerOf(call) };
  state.answer = state.answer.finally(() => {
    state.settled = true;
  });
  return state;
};

describe("the large lane", () => {
  it("runs a large call in a worker of its own: a small call sent after it is answered while it still runs", async () => {
    const pool = lanePool();
    try {
      const nextHeld = await watchHeld(pool);
      const largeCall = tracked(pool.verify(large("hold")));
      const held = await nextHeld();
      const { answer: smallAnswer, otherSettled } = await settledOrder(pool.verify(small), largeCall);
      expect(otherSettled).toBe(false);
      expect(smallAnswer.threadId).not.toBe(held.threadId);
      release(held);
      expect((await largeCall.answer).threadId).toBe(held.threadId);
      // Small calls keep their worker and large ones theirs, whichever call carries the text.
      expect((await answerOf(pool.verify(small))).threadId).toBe(smallAnswer.threadId);
      const lane = [
        pool.verify(large("again")),
        pool.verifyPrepared?.(large("prepared"), { layerClaims: false }),
        pool.runLayer("numbers", "an answer", undefined, ["x".repeat(largeCallChars)]),
        pool.assessRisk("x".repeat(largeCallChars)),
        pool.validateNumbersJson({
          text: "an answer",
          evidence: [{ index: 0, origin: "source", text: "x".repeat(largeCallChars) }],
        }),
      ];
      for (const answer of await Promise.all(lane.map((call) => answerOf(Promise.resolve(call)))))
        expect(answer.threadId).toBe(held.threadId);
      expect((await answerOf(pool.verify({ text: "x".repeat(largeCallChars - 1) }))).threadId).toBe(
        smallAnswer.threadId,
      );
    } finally {
      await pool.close();
    }
  });

  it("starts no lane worker until the first large call", async () => {
    const pool = lanePool();
    try {
      const smallAnswer = await answerOf(pool.verify(small));
      // Thread ids grow with each worker the process starts: one started now marks the moment.
      const marker = new Worker("", { eval: true, execArgv: [] });
      const markerId = marker.threadId;
      await marker.terminate();
      expect(smallAnswer.threadId).toBeLessThan(markerId);
      expect((await answerOf(pool.verify(large("first")))).threadId).toBeGreaterThan(markerId);
    } finally {
      await pool.close();
    }
  });

  it("starts another lane worker only while each has a large call, and refuses past its own limit", async () => {
    const pool = lanePool({ largeWorkers: 2, maxPendingPerLargeWorker: 1, maxPendingPerWorker: 1 });
    try {
      const nextHeld = await watchHeld(pool);
      const first = pool.verify(large("hold"));
      const heldFirst = await nextHeld();
      const second = pool.verify(large("hold"));
      const heldSecond = await nextHeld();
      expect(heldSecond.threadId).not.toBe(heldFirst.threadId);
      const refused = await pool.verify(large("one too many")).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(VerifierBusyError);
      expect(refused).toMatchObject({ pending: 2 });
      expect((refused as Error).message).toMatch(/large-call verification worker has 1 calls waiting/);
      // The small calls' worker and limit are their own.
      const smallAnswer = await answerOf(pool.verify(small));
      expect([heldFirst.threadId, heldSecond.threadId]).not.toContain(smallAnswer.threadId);
      release(heldFirst);
      release(heldSecond);
      await Promise.all([first, second]);
      // Idle again, the lane's first worker takes the next large call.
      expect((await answerOf(pool.verify(large("after")))).threadId).toBe(heldFirst.threadId);
    } finally {
      await pool.close();
    }
  });

  it("gets calibration updates, whether its worker starts before or after them", async () => {
    const pool = lanePool({ calibration: { grounding: { a: 1, b: 0 } } });
    try {
      await pool.updateCalibration({ grounding: { a: 6, b: -2 } });
      // The lane's worker starts here, after the update.
      expect((await answerOf(pool.verify(large("first")))).calibration).toEqual({
        grounding: { a: 6, b: -2 },
      });
      await pool.updateCalibration({ numbers: { a: 2, b: 1 } });
      const updated = { grounding: { a: 6, b: -2 }, numbers: { a: 2, b: 1 } };
      const [inLane, inSmall] = await Promise.all(
        [pool.verify(large("second")), pool.verify(small)].map(answerOf),
      );
      expect(inLane?.threadId).not.toBe(inSmall?.threadId);
      expect(inLane?.calibration).toEqual(updated);
      expect(inSmall?.calibration).toEqual(updated);
    } finally {
      await pool.close();
    }
  });

  it("fails a large call whose worker crashes with a VerificationError, and replaces the worker", async () => {
    const pool = lanePool();
    try {
      const before = await answerOf(pool.verify(large("first")));
      const smallBefore = await answerOf(pool.verify(small));
      const crashed = await pool.verify(large("crash")).catch((error: unknown) => error);
      expect(crashed).toBeInstanceOf(VerificationError);
      expect((crashed as Error).message).toMatch(/worker stopped \(exit code 70\)/);
      const after = await answerOf(pool.verify(large("after")));
      expect(after.threadId).not.toBe(before.threadId);
      expect(after.threadId).not.toBe(smallBefore.threadId);
      expect((await answerOf(pool.verify(small))).threadId).toBe(smallBefore.threadId);
    } finally {
      await pool.close();
    }
  });

  it("starts small-call workers with a larger young generation, their replacements too, and the lane's with V8's", async () => {
    const pool = lanePool();
    try {
      const smallLimits = (await answerOf(pool.verify(small))).resourceLimits;
      expect(smallLimits.maxYoungGenerationSizeMb).toBe(defaultWorkerResourceLimits.maxYoungGenerationSizeMb);
      // The old generation keeps its default: only the young one is set.
      const plain = await limitsOfPlainWorker();
      expect(smallLimits.maxOldGenerationSizeMb).toBe(plain.maxOldGenerationSizeMb);
      expect((await answerOf(pool.verify(large("lane")))).resourceLimits).toEqual(plain);
      // A small-call worker that dies is replaced by one with the same limits.
      const crashed = await pool.verify({ ...small, text: "crash" }).catch((error: unknown) => error);
      expect(crashed).toBeInstanceOf(VerificationError);
      expect((await answerOf(pool.verify(small))).resourceLimits).toEqual(smallLimits);
    } finally {
      await pool.close();
    }
    const chosen = lanePool({ workerResourceLimits: { maxYoungGenerationSizeMb: 64 } });
    try {
      expect((await answerOf(chosen.verify(small))).resourceLimits.maxYoungGenerationSizeMb).toBe(64);
    } finally {
      await chosen.close();
    }
  });

  it("stops a large call past its deadline and replaces its worker, while small calls are answered", async () => {
    const pool = lanePool({ callTimeoutMs: 1_000 });
    try {
      const nextHeld = await watchHeld(pool);
      const stopped = pool.verify(large("hold")).catch((error: unknown) => error);
      const held = await nextHeld();
      const smallAnswer = await answerOf(pool.verify(small));
      expect(smallAnswer.threadId).not.toBe(held.threadId);
      expect(await stopped).toBeInstanceOf(VerificationTimeoutError);
      const after = await answerOf(pool.verify(large("after")));
      expect([held.threadId, smallAnswer.threadId]).not.toContain(after.threadId);
    } finally {
      await pool.close();
    }
  });

  for (const off of [0, Number.POSITIVE_INFINITY])
    it(`is off with largeCallChars ${off}: a small call waits behind a large one in the same worker`, async () => {
      const pool = lanePool({ largeCallChars: off });
      try {
        const nextHeld = await watchHeld(pool);
        const largeCall = tracked(pool.verify(large("hold")));
        const held = await nextHeld();
        const smallCall = settledOrder(pool.verify(small), largeCall);
        release(held);
        const { answer: smallAnswer, otherSettled } = await smallCall;
        expect(otherSettled).toBe(true);
        expect(smallAnswer.threadId).toBe(held.threadId);
      } finally {
        await pool.close();
      }
    });

  it("gives the same verification in its worker as a verifier in the caller's thread", async () => {
    const pool = createWorkerPoolVerifier(realLanePool);
    const inThread = createVerifier({ settings: realLanePool.settings });
    try {
      expect(callChars({ op: "verify", request: realLargeRequest })).toBeGreaterThanOrEqual(
        realLanePool.largeCallChars,
      );
      const [fromLane, fromThread] = await Promise.all([
        pool.verify(realLargeRequest),
        inThread.verify(realLargeRequest),
      ]);
      expect(fromLane.passed).toBe(false);
      expect(withoutTimings(fromLane)).toEqual(withoutTimings(fromThread));
    } finally {
      await Promise.all([pool.close(), inThread.close()]);
    }
  });

  it("refuses a negative threshold or idle time, or a lane without workers", () => {
    for (const options of [
      { largeCallChars: -1 },
      { largeCallChars: Number.NaN },
      { largeWorkers: 0 },
      { largeWorkerIdleMs: -1 },
      { largeWorkerIdleMs: Number.NaN },
    ])
      expect(() => createWorkerPoolVerifier({ workers: 1, ...options })).toThrow(RangeError);
  });

  it("has a lane worker left idle for largeWorkerIdleMs release its verifier once, and keeps the worker", async () => {
    // An idle time a busy machine cannot overrun between two calls sent one after the other.
    const pool = lanePool({ largeWorkerIdleMs: 1_000 });
    try {
      const first = await answerOf(pool.verify(large("first")));
      // Within the idle time the next large call finds the verifier as it was, and its time starts again after it.
      const soon = await answerOf(pool.verify(large("soon after")));
      expect(soon).toMatchObject({ threadId: first.threadId, releases: 0 });
      const smallBefore = await answerOf(pool.verify(small));
      // More than three idle times: a release that started another idle time would come again.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      const later = await answerOf(pool.verify(large("later")));
      expect(later).toMatchObject({ threadId: first.threadId, releases: 1 });
      // The small calls' worker is never released for idling.
      expect(await answerOf(pool.verify(small))).toMatchObject({
        threadId: smallBefore.threadId,
        releases: 0,
      });
    } finally {
      await pool.close();
    }
  });

  it("never releases with largeWorkerIdleMs Infinity, nor while a large call runs past the idle time", async () => {
    const kept = lanePool({ largeWorkerIdleMs: Number.POSITIVE_INFINITY });
    const short = lanePool({ largeWorkerIdleMs: 300 });
    try {
      await kept.verify(large("first"));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await answerOf(kept.verify(large("later")))).releases).toBe(0);

      const nextHeld = await watchHeld(short);
      const held = short.verify(large("hold"));
      const holding = await nextHeld();
      await new Promise((resolve) => setTimeout(resolve, 900));
      release(holding);
      await held;
      // Sent at once after the held call: a release sent while it ran would have been answered before this call.
      expect((await answerOf(short.verify(large("right after")))).releases).toBe(0);
    } finally {
      await Promise.all([kept.close(), short.close()]);
    }
  });

  it("verifies as before after a release, with the calibration updated before it, its events still reported", async () => {
    const models = { grounding: { a: 4, b: -1 } };
    const pool = createWorkerPoolVerifier({ ...realLanePool, largeWorkerIdleMs: 50 });
    const calibrated = createVerifier({ settings: realLanePool.settings, calibration: models });
    const completed: string[] = [];
    await pool.subscribe((event) => {
      if (event.type === "verification.completed") completed.push(event.type);
    });
    try {
      const before = await pool.verify(realLargeRequest);
      await pool.updateCalibration(models);
      // Long enough for the idle worker's release (50 ms), on a busy machine too.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const after = await pool.verify(realLargeRequest);
      const expected = await calibrated.verify(realLargeRequest);
      expect(withoutTimings(after)).toEqual(withoutTimings(expected));
      // The models changed the layer's score: the comparison tells a verifier built without them.
      const groundingScore = (result: typeof after) =>
        result.layersRun.find((layer) => layer.layer === "grounding")?.score;
      expect(groundingScore(after)).toBeDefined();
      expect(groundingScore(after)).not.toBe(groundingScore(before));
      expect(completed.length).toBe(2);
    } finally {
      await Promise.all([pool.close(), calibrated.close()]);
    }
  });
});

describe("callChars", () => {
  it("sums the lengths of the text, context, question and every source a call carries", () => {
    expect(
      callChars({
        op: "verify",
        request: { text: "abc", context: "de", question: "f", sources: ["gh", "ijk"] },
      }),
    ).toBe(11);
    expect(
      callChars({
        op: "validateNumbersJson",
        input: { text: "abc", question: "d", evidence: [{ index: 0, origin: "source", text: "efgh" }] },
      }),
    ).toBe(8);
    expect(callChars({ op: "runLayer", layer: "numbers", text: "ab", sources: ["cde"] })).toBe(5);
    expect(callChars({ op: "updateCalibration", models: {} })).toBe(0);
  });

  it("counts what a malformed request has of the right type, and never throws", () => {
    expect(callChars({ op: "verify", request: { text: 42, sources: "abc" } as never })).toBe(0);
    expect(callChars({ op: "verify", request: { text: "ab", sources: ["cd", 5, null] } as never })).toBe(4);
    expect(callChars({ op: "verify", request: null as never })).toBe(0);
    expect(callChars({ op: "validateNumbersJson", input: { text: "ab", evidence: [null] } as never })).toBe(
      2,
    );
  });
});

describe("calls with the same evidence", () => {
  const withSources = (text: string, source: string): VerificationRequest => ({ text, sources: [source] });

  it("go to the same worker, where its indexes are cached, while others spread over the pool", async () => {
    const pool = createWorkerPoolVerifier({ workers: 3, workerUrl: laneWorker });
    try {
      // Sent at once: the least busy worker alone would spread them over the three idle workers.
      const together = await Promise.all(
        [0, 1, 2].map((round) => answerOf(pool.verify(withSources(`answer ${round}`, "the filing of 2023")))),
      );
      const later = await answerOf(pool.verify(withSources("answer 3", "the filing of 2023")));
      expect(new Set([...together, later].map((answer) => answer.threadId)).size).toBe(1);
      const spread = new Set<number>();
      for (let source = 0; source < 24; source++)
        spread.add(
          (await answerOf(pool.verify(withSources("an answer", `filing number ${source}`)))).threadId,
        );
      expect(spread.size).toBeGreaterThan(1);
    } finally {
      await pool.close();
    }
  });

  /** Sources, of `count`, whose fingerprints name the same worker of a pool of two as `source`'s does. */
  const namingTheSameWorker = (source: string, count: number): string[] => {
    const named = (text: string) =>
      (evidenceFingerprint({ op: "verify", request: withSources("an answer", text) }) as number) % 2;
    const found: string[] = [];
    for (let n = 0; found.length < count; n++)
      if (named(`filing number ${n}`) === named(source)) found.push(`filing number ${n}`);
    return found;
  };

  /**
   * A pool of two whose worker that `source`'s fingerprint names is blocked by a held call while `body` runs;
   * the call is let go afterwards, and `body` is given the held call's thread and its tracked answer.
   */
  const withNamedWorkerHeld = async (
    source: string,
    body: (
      pool: WorkerPoolVerifier,
      held: HeldEvent["payload"],
      holding: ReturnType<typeof tracked>,
    ) => Promise<void>,
  ) => {
    const pool = createWorkerPoolVerifier({ workers: 2, workerUrl: laneWorker });
    try {
      const nextHeld = await watchHeld(pool);
      const holding = tracked(pool.verify(withSources("hold", source)));
      await body(pool, await nextHeld(), holding);
    } finally {
      await pool.close();
    }
  };

  it("go to an idle worker when no worker has seen them, even where their fingerprint names a busy one", () =>
    withNamedWorkerHeld("the filing held", async (pool, held, holding) => {
      // Each is answered while the held call still blocks the worker its fingerprint names.
      for (const other of namingTheSameWorker("the filing held", 6)) {
        const answer = await answerOf(pool.verify(withSources("an answer", other)));
        expect(answer.threadId).not.toBe(held.threadId);
      }
      expect(holding.settled).toBe(false);
      release(held);
      expect((await holding.answer).threadId).toBe(held.threadId);
    }));

  it("go back to the worker they went to before, not to the one their fingerprint names", () =>
    withNamedWorkerHeld("the filing held", async (pool, held, holding) => {
      const [other] = namingTheSameWorker("the filing held", 1) as [string];
      const first = await answerOf(pool.verify(withSources("first", other)));
      expect(first.threadId).not.toBe(held.threadId);
      release(held);
      await holding.answer;
      // Both workers idle now: the set goes where its indexes are, three times over.
      for (const text of ["second", "third", "fourth"])
        expect((await answerOf(pool.verify(withSources(text, other)))).threadId).toBe(first.threadId);
    }));

  it("go, in new company, to the worker their documents were sent to, not where the new set's fingerprint points", async () => {
    const pool = createWorkerPoolVerifier({ workers: 2, workerUrl: laneWorker });
    const set = (...sources: string[]): VerificationRequest => ({ text: "an answer", sources });
    const named = (sources: string[]) =>
      (evidenceFingerprint({ op: "verify", request: set(...sources) }) as number) % 2;
    try {
      const kept = [
        "the filing of 2023, page one",
        "the filing of 2023, page two",
        "the filing of 2023, page three",
      ];
      const home = (await answerOf(pool.verify(set(...kept)))).threadId;
      // New sets around two of the documents, each with a fingerprint naming the worker the first set's does not.
      let sent = 0;
      for (let n = 0; sent < 4; n++) {
        const sources = [...kept.slice(n % 2, (n % 2) + 2), `a new document ${n}`];
        if (named(sources) === named(kept)) continue;
        expect((await answerOf(pool.verify(set(...sources)))).threadId).toBe(home);
        sent += 1;
      }
      // A set of new documents naming the other worker goes there: the two workers are told apart.
      for (let n = 0; ; n++) {
        const sources = [`another new document ${n}`];
        if (named(sources) === named(kept)) continue;
        expect((await answerOf(pool.verify(set(...sources)))).threadId).not.toBe(home);
        break;
      }
    } finally {
      await pool.close();
    }
  });

  it("go elsewhere once their worker has more calls waiting than the least busy by more than two", async () => {
    const pool = createWorkerPoolVerifier({ workers: 3, workerUrl: laneWorker });
    try {
      const nextHeld = await watchHeld(pool);
      const source = "the filing of 2024";
      const tied = (await answerOf(pool.verify(withSources("first", source)))).threadId;
      const holding = tracked(pool.verify(withSources("hold", source)));
      const held = await nextHeld();
      expect(held.threadId).toBe(tied);
      // The tied worker holds one call: two more still wait for it, the next goes to an idle worker.
      const waiting = [
        tracked(pool.verify(withSources("a", source))),
        tracked(pool.verify(withSources("b", source))),
      ];
      const elsewhere = await answerOf(pool.verify(withSources("c", source)));
      expect(elsewhere.threadId).not.toBe(tied);
      expect(waiting.map((call) => call.settled)).toEqual([false, false]);
      release(held);
      expect((await holding.answer).threadId).toBe(tied);
      for (const call of waiting) expect((await call.answer).threadId).toBe(tied);
    } finally {
      await pool.close();
    }
  });
});
