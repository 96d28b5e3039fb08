import { afterAll, describe, expect, it } from "vitest";
import { VerificationError } from "../../model/errors.js";
import type { VerificationRequest } from "../../model/request.js";
import { createVerifier } from "../create-verifier.js";
import { createWorkerPoolVerifier } from "./create-worker-pool-verifier.js";
import {
  type KeptSources,
  keptSourcesRecord,
  keptSourcesStore,
  type WorkerKeptLimits,
} from "./kept-sources.js";
import type { WorkerCall } from "./messages.js";
import { withoutTimings } from "./testing/without-timings.js";
import type { CallBody } from "./worker-slots.js";

// The protocol itself, every large source kept at once; admission on second sight has a test of its own.
const limits: WorkerKeptLimits = { minKeptChars: 10, keptChars: 40, secondSight: false };
/** A text of `chars` characters, told apart by `name`. */
const textOf = (name: string, chars: number) => `${name}:`.padEnd(chars, "x");
const verifyCall = (sources: readonly string[], text = "an answer", context?: string): CallBody => ({
  op: "verify",
  request: { text, sources: [...sources], ...(context === undefined ? {} : { context }) },
});

/** The pool's record and a worker's store side by side, as one message channel joins them. */
const channel = (bounds: WorkerKeptLimits = limits) => {
  const record = keptSourcesRecord(bounds);
  const store = keptSourcesStore();
  let id = 0;
  const send = (body: CallBody) => {
    const outgoing = record.outgoing(body);
    // Through a structured clone, as postMessage sends it.
    const sent = structuredClone({ ...outgoing, id: ++id }) as WorkerCall;
    return { outgoing, sent, received: store.incoming(sent) };
  };
  return { record, store, send };
};

const sourcesOf = (call: CallBody | WorkerCall) => (call as { request: VerificationRequest }).request.sources;
const contextOf = (call: CallBody | WorkerCall) => (call as { request: VerificationRequest }).request.context;
const instructionsOf = (call: CallBody | WorkerCall) => (call as { keptSources?: KeptSources }).keptSources;

describe("kept sources: the pool's record and the worker's store", () => {
  it("sends a large source whole the first time, then by its number, and the worker rebuilds the call exactly", () => {
    const { send, store } = channel();
    const large = textOf("filing", 30);
    const first = send(verifyCall([large, "short"]));
    expect(sourcesOf(first.sent)).toEqual([large, "short"]);
    expect(instructionsOf(first.sent)).toEqual({ kept: [[0, 1]], named: [], dropped: [] });
    const second = send(verifyCall([large, "other"], "another answer"));
    // The large source crosses as an empty string; the worker puts it back.
    expect(sourcesOf(second.sent)).toEqual(["", "other"]);
    expect(instructionsOf(second.sent)).toEqual({ kept: [], named: [[0, 1]], dropped: [] });
    expect(second.received).toEqual({ ...verifyCall([large, "other"], "another answer"), id: 2 });
    expect(store.size()).toBe(1);
  });

  it("leaves calls without a large source as they are", () => {
    const { record } = channel();
    const small = verifyCall(["short", "tiny"]);
    expect(record.outgoing(small)).toBe(small);
    const noSources: CallBody = { op: "verify", request: { text: textOf("answer", 30) } };
    expect(record.outgoing(noSources)).toBe(noSources);
    const layer: CallBody = { op: "runLayer", layer: "grounding", text: "a", sources: [textOf("s", 30)] };
    expect(record.outgoing(layer)).toBe(layer);
    expect(record.chars()).toBe(0);
  });

  it("drops the least recently used text past the budget on both sides, and names the rest", () => {
    const { send, record, store } = channel();
    const [a, b, c] = ["a", "b", "c"].map((name) => textOf(name, 15)) as [string, string, string];
    send(verifyCall([a]));
    send(verifyCall([b]));
    // a used again: b is now the least recently used.
    expect(instructionsOf(send(verifyCall([a])).sent)?.named).toEqual([[0, 1]]);
    const third = send(verifyCall([c]));
    expect(instructionsOf(third.sent)).toEqual({ kept: [[0, 3]], named: [], dropped: [2] });
    expect(record.chars()).toBe(30);
    expect(store.size()).toBe(2);
    // a and c are named; b is sent whole again.
    const again = send(verifyCall([a, b, c]));
    expect(sourcesOf(again.sent)).toEqual(["", b, ""]);
    expect(sourcesOf(again.received)).toEqual([a, b, c]);
  });

  it("counts the large texts it looked up, those it named, those too large to keep and its evictions", () => {
    const { send, record } = channel();
    const [a, b, c] = ["a", "b", "c"].map((name) => textOf(name, 15)) as [string, string, string];
    send(verifyCall([a, "small"]));
    send(verifyCall([b]));
    send(verifyCall([a])); // named
    send(verifyCall([c])); // b evicted
    send(verifyCall([textOf("huge", 41)])); // past the 40-character budget: never kept
    expect(record.stats()).toEqual({
      cache: "pool.kept-texts",
      lookups: 4,
      hits: 1,
      bypassed: 1,
      evictions: 1,
      entries: 2,
      characters: 30,
      maxCharacters: 40,
    });
    // A release empties the record without counting evictions; its counts stay.
    send({ op: "release" });
    expect(record.stats()).toMatchObject({ lookups: 4, hits: 1, evictions: 1, entries: 0, characters: 0 });
  });

  it("never drops a text the call itself names or keeps, and sends whole a text it finds no room for", () => {
    const { send, record, store } = channel();
    const [a, b, c] = ["a", "b", "c"].map((name) => textOf(name, 15)) as [string, string, string];
    // 45 characters over a budget of 40: a and b are kept, c finds no room but a text of this call's.
    const full = send(verifyCall([a, b, c]));
    expect(instructionsOf(full.sent)).toEqual({
      kept: [
        [0, 1],
        [1, 2],
      ],
      named: [],
      dropped: [],
    });
    expect(sourcesOf(full.received)).toEqual([a, b, c]);
    // b is named; c is kept in place of a, which this call does not use.
    const next = send(verifyCall([c, b]));
    expect(instructionsOf(next.sent)).toEqual({ kept: [[0, 3]], named: [[1, 2]], dropped: [1] });
    expect(sourcesOf(next.sent)).toEqual([c, ""]);
    expect(sourcesOf(next.received)).toEqual([c, b]);
    expect([record.chars(), store.size()]).toEqual([30, 2]);
    const huge = textOf("huge", 41);
    const over = send(verifyCall([huge]));
    expect(instructionsOf(over.sent)).toBeUndefined();
    expect(sourcesOf(over.received)).toEqual([huge]);
  });

  it("keeps a text sent twice in one call once, and fills in both places", () => {
    const { send } = channel();
    const large = textOf("twice", 20);
    const call = send(verifyCall([large, large]));
    expect(sourcesOf(call.sent)).toEqual([large, ""]);
    expect(sourcesOf(call.received)).toEqual([large, large]);
  });

  it("keeps a large context as it keeps a source, and one text sent as both once", () => {
    const { send, record, store } = channel();
    const document = textOf("document", 25);
    const first = send(verifyCall(["short"], "an answer", document));
    expect(contextOf(first.sent)).toBe(document);
    expect(instructionsOf(first.sent)).toEqual({ kept: [[-1, 1]], named: [], dropped: [] });
    const second = send(verifyCall([document], "another answer", document));
    // Named at both places: as the call's one source and as its context.
    expect([sourcesOf(second.sent), contextOf(second.sent)]).toEqual([[""], ""]);
    expect(instructionsOf(second.sent)).toEqual({
      kept: [],
      named: [
        [0, 1],
        [-1, 1],
      ],
      dropped: [],
    });
    expect(second.received).toEqual({ ...verifyCall([document], "another answer", document), id: 2 });
    // A short context, and a call with no sources at all, cross as they are.
    const short = send(verifyCall(["tiny"], "a third answer", "brief"));
    expect(instructionsOf(short.sent)).toBeUndefined();
    const contextOnly: CallBody = { op: "verify", request: { text: "a fourth", context: document } };
    const alone = send(contextOnly);
    expect(alone.sent).toEqual({
      op: "verify",
      request: { text: "a fourth", context: "" },
      id: 4,
      keptSources: { kept: [], named: [[-1, 1]], dropped: [] },
    });
    expect(alone.received).toEqual({ ...contextOnly, id: 4 });
    expect([record.chars(), store.size()]).toEqual([25, 1]);
  });

  it("by default keeps a source only the second time it is sent, so sources sent once are never held", () => {
    const { send, record, store } = channel({ minKeptChars: 10, keptChars: 40 });
    const [once, twice] = [textOf("once", 15), textOf("twice", 15)];
    expect(instructionsOf(send(verifyCall([once])).sent)).toBeUndefined();
    expect(instructionsOf(send(verifyCall([twice])).sent)).toBeUndefined();
    expect(instructionsOf(send(verifyCall([twice])).sent)).toEqual({
      kept: [[0, 1]],
      named: [],
      dropped: [],
    });
    expect(sourcesOf(send(verifyCall([twice])).sent)).toEqual([""]);
    expect([record.chars(), store.size()]).toEqual([15, 1]);
  });

  it("keeps nothing after a release, on either side", () => {
    const { send, record, store } = channel();
    const large = textOf("filing", 30);
    send(verifyCall([large]));
    send({ op: "release" });
    expect(record.chars()).toBe(0);
    expect(store.size()).toBe(0);
    expect(sourcesOf(send(verifyCall([large])).sent)).toEqual([large]);
  });

  it("fails a call that names a text the worker does not hold", () => {
    const store = keptSourcesStore();
    const call = {
      id: 1,
      op: "verify",
      request: { text: "an answer", sources: [""] },
      keptSources: { kept: [], named: [[0, 7]], dropped: [] },
    } as WorkerCall;
    expect(() => store.incoming(call)).toThrow(/holds no kept source 7/);
  });

  it("rebuilds every call exactly over a long random run, the two sides keeping the same texts", () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    const texts = Array.from({ length: 12 }, (_, index) =>
      textOf(`t${index}`, 5 + Math.floor(random() * 30)),
    );
    for (const keptChars of [0, 25, 60, 200]) {
      const { send, record, store } = channel({ minKeptChars: 10, keptChars, secondSight: random() < 0.5 });
      for (let call = 0; call < 400; call++) {
        if (random() < 0.02) send({ op: "release" });
        const sources = Array.from(
          { length: 1 + Math.floor(random() * 4) },
          () => texts[Math.floor(random() * texts.length)] as string,
        );
        const context = random() < 0.4 ? (texts[Math.floor(random() * texts.length)] as string) : undefined;
        const { received } = send(verifyCall(sources, "an answer", context));
        expect(sourcesOf(received)).toEqual(sources);
        expect(contextOf(received)).toBe(context);
        expect(record.chars()).toBeLessThanOrEqual(keptChars);
        expect(instructionsOf(received)).toBeUndefined();
      }
      expect(store.size() === 0).toBe(record.chars() === 0);
    }
  });
});

describe("kept sources through the worker pool", () => {
  // A source over the default 100,000 characters, and a second one, each told apart by its figures.
  const filing = (name: string, base: number) =>
    Array.from(
      { length: 1_000 },
      (_, index) =>
        `Section ${index} of the ${name} filing. Revenue of segment ${index} was $${base + index}.2 million in 2023, ` +
        "up from the year before.",
    ).join("\n\n");
  const first = filing("first", 100);
  const second = filing("second", 5_000);
  const answers = [
    "Revenue of segment 12 was $112.2 million in 2023.",
    "Revenue of segment 12 was $912.2 million in 2023.",
    "Revenue of segment 40 was $5040.2 million in 2023, up from the year before.",
    "Revenue of segment 40 was $140.2 million in 2023.",
  ];
  const inThread = createVerifier();
  afterAll(() => inThread.close());

  it("answers calls that name kept sources as a verifier in the caller's thread does, within and past the budget", async () => {
    expect(first.length).toBeGreaterThan(100_000);
    const requests = answers.flatMap((text) => [
      { text, sources: [first] },
      { text, sources: [second, first] },
      { text, sources: [second] },
      { text, context: first },
      { text, context: second, sources: [first] },
    ]);
    const expected = await Promise.all(requests.map((request) => inThread.verify(request)));
    expect(expected.map((result) => result.passed)).toContain(true);
    expect(expected.map((result) => result.passed)).toContain(false);
    // The default budget keeps both; with room for one source, each call of one source drops the other.
    for (const keptSources of [undefined, { keptChars: first.length + 10 }]) {
      const pool = createWorkerPoolVerifier({ workers: 1, ...(keptSources ? { keptSources } : {}) });
      try {
        const results = [];
        for (const request of requests) results.push(await pool.verify(request));
        expect(withoutTimings(results)).toEqual(withoutTimings(expected));
      } finally {
        await pool.close();
      }
    }
  });

  it("sends a dead worker's replacement every source whole again", async () => {
    const pool = createWorkerPoolVerifier({
      workers: 1,
      workerUrl: new URL("./testing/crashing-worker.ts", import.meta.url),
    });
    try {
      const request = { text: answers[0] as string, sources: [first] };
      const before = await pool.verify(request);
      const crashed = await pool
        .verify({ text: "crash the worker", sources: [first] })
        .catch((error) => error);
      expect(crashed).toBeInstanceOf(VerificationError);
      const after = await pool.verify(request);
      expect(withoutTimings(after)).toEqual(withoutTimings(before));
      expect(after.passed).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
