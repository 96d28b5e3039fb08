/**
 * A worker thread of the verification pool: builds its own verifier (the offline evidence layers, and the
 * citations layer when the pool has a repository's citations) and answers the pool's calls one message at a
 * time. Events of its verifiers are forwarded to the pool's subscribers.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { CalibrationModels } from "../../calibration/calibrator.js";
import { validateNumbers } from "../../checks/numbers/validate/validate-numbers.js";
import { type CacheStats, sumCacheStats } from "../../model/cache-stats.js";
import { leanResult } from "../../model/lean-result.js";
import { readJsonBytes } from "../../text/json-text.js";
import { createVerifier, type VerifierConfig } from "../create-verifier.js";
import { defaultEvidenceLayers } from "../default-layers.js";
import { prepareAnswer } from "../prepared-answer.js";
import { warmUpVerifier } from "../warm-up-verifier.js";
import { fairQueue } from "./fair-queue.js";
import { keptSourcesStore } from "./kept-sources.js";
import {
  movableBuffers,
  serializeError,
  type VerifierChoice,
  type WorkerCall,
  type WorkerReply,
  type WorkerVerifierConfig,
} from "./messages.js";

const port = parentPort;
if (port === null) throw new Error("verify-worker runs only as a worker thread");
const send = (reply: WorkerReply, transfer?: readonly ArrayBuffer[]) => port.postMessage(reply, transfer);

// The pool sends only the settings it was given (no undefined keys).
const config = (workerData ?? {}) as WorkerVerifierConfig;
// The Platt models applied since the worker started, so a verifier built again (`release`) keeps them.
let calibration = config.calibration;

/**
 * The worker's verifiers and their calls still running, so verifiers replaced by `release` close after them:
 * the configured verifier and, when the configuration adds the citations layer, one of the offline evidence
 * layers only (`evidenceLayersOnly` calls); without citations both names hold the same verifier.
 */
interface InUse {
  readonly verifier: ReturnType<typeof createVerifier>;
  readonly evidenceOnly: ReturnType<typeof createVerifier>;
  running: number;
  whenDone?: () => void;
}

/**
 * The configured verifier's configuration: the pool's settings, the calibration in force and, for a
 * repository's citations, the offline evidence layers followed by the citations layer (loaded only then).
 */
const verifierConfig = async (): Promise<VerifierConfig> => {
  const { citations, ...rest } = config;
  const layers =
    citations === undefined
      ? undefined
      : [
          ...defaultEvidenceLayers(config.settings?.sourceCache),
          (await import("../../checks/citations/layer.js")).makeCitationsLayer(citations),
        ];
  return {
    ...evidenceOnlyConfig(rest),
    ...(layers === undefined ? {} : { layers }),
  };
};

/** The configuration of a verifier of the offline evidence layers only: the settings and calibration in force. */
const evidenceOnlyConfig = ({ citations: _none, ...rest }: WorkerVerifierConfig): VerifierConfig => ({
  ...rest,
  ...(calibration === undefined ? {} : { calibration }),
});

/** A verifier whose events are forwarded to the pool, subscribed before it takes a call: none is lost. */
const subscribed = async (verifierConfig: VerifierConfig) => {
  const verifier = createVerifier(verifierConfig);
  await verifier.subscribe((event) => send({ kind: "event", event }));
  return verifier;
};

const built = async (): Promise<InUse> => {
  const verifier = await subscribed(await verifierConfig());
  const evidenceOnly =
    config.citations === undefined ? verifier : await subscribed(evidenceOnlyConfig(config));
  return { verifier, evidenceOnly, running: 0 };
};

/** The distinct verifiers in use (one without citations). */
const verifiersOf = (inUse: InUse) =>
  inUse.evidenceOnly === inUse.verifier ? [inUse.verifier] : [inUse.verifier, inUse.evidenceOnly];

let current = await built();

/**
 * Runs a call in the current verifier the call chose (`evidenceLayersOnly`), counted as running there until it
 * settles.
 */
const withVerifier = <A>(
  choice: VerifierChoice,
  run: (verifier: InUse["verifier"]) => Promise<A>,
): Promise<A> => {
  const inUse = current;
  inUse.running += 1;
  // Started in a promise's callback: a call that threw at once still settles, and is counted out.
  return Promise.resolve(choice.evidenceLayersOnly === true ? inUse.evidenceOnly : inUse.verifier)
    .then(run)
    .finally(() => {
      inUse.running -= 1;
      if (inUse.running === 0) inUse.whenDone?.();
    });
};

/**
 * Calibration updates and releases, one after the other: an update sent while a release builds the new verifier
 * reaches the new one, not only the one being replaced.
 */
let changes: Promise<unknown> = Promise.resolve();
const inOrder = <A>(change: () => Promise<A>): Promise<A> => {
  const next = changes.then(change);
  changes = next.catch(() => undefined);
  return next;
};

const updateCalibration = (models: CalibrationModels) =>
  inOrder(async () => {
    for (const verifier of verifiersOf(current)) await verifier.updateCalibration(models);
    calibration = { ...calibration, ...models };
  });

/**
 * The verifier, with everything it holds (its caches of indexed evidence, the last evidence it read), replaced
 * by a new one built the same way, the calibration updates included. The worker stays, with the code its
 * verifications compiled: a large-lane worker left idle gives back the memory a 10 MB source took, and its next
 * call runs as fast as the one before instead of in a new, cold thread. Calls that arrive meanwhile run in the
 * old verifier until the new one is ready, and the old one is closed once the last call it started has settled.
 * (The offline layers never wait on anything mid-verification, so today a release is read between two calls;
 * a verification that did wait would otherwise be cut short by the close.)
 */
const release = () =>
  inOrder(async () => {
    const fresh = await built();
    const old = current;
    releasing.add(old);
    current = fresh;
    if (old.running > 0) await new Promise<void>((resolve) => (old.whenDone = resolve));
    // Its caches' counts outlive it: the worker's stats count every call since it started. Moved in one step,
    // so a look at the stats meanwhile counts the old verifier once, as releasing or as retired.
    const last = await statsOf(old);
    retired = sumCacheStats([retired, last.map(countsOnly)]);
    releasing.delete(old);
    for (const verifier of verifiersOf(old)) await verifier.close();
  });

/** What the released verifiers' caches did, their holdings and bounds gone with them. */
let retired: readonly CacheStats[] = [];
/** Verifiers being released: still counted as they are until their counts move to `retired`. */
const releasing = new Set<InUse>();
const countsOnly = (stats: CacheStats): CacheStats => ({
  ...stats,
  entries: 0,
  characters: 0,
  ...(stats.maxEntries === undefined ? {} : { maxEntries: 0 }),
  ...(stats.maxCharacters === undefined ? {} : { maxCharacters: 0 }),
});

/** The caches of a worker's verifiers, each name once (its two verifiers each have their own). */
const statsOf = async (inUse: InUse): Promise<CacheStats[]> =>
  sumCacheStats(await Promise.all(verifiersOf(inUse).map((verifier) => verifier.cacheStats())));

/**
 * The worker's caches: the verifiers in use or being released, and the counts of those released. Which verifiers
 * and which retired counts are read together, before any wait: a release that ends meanwhile moves a verifier's
 * counts to `retired`, and they are then counted once, not twice.
 */
const workerCacheStats = async (): Promise<CacheStats[]> => {
  const inUse = [current, ...releasing];
  const released = retired;
  return sumCacheStats([...(await Promise.all(inUse.map(statsOf))), released]);
};

const answer = (call: WorkerCall): Promise<unknown> => {
  switch (call.op) {
    case "verify":
      return withVerifier(call, (verifier) => verifier.verify(call.request));
    case "verifyLean":
      return withVerifier(call, (verifier) => verifier.verify(call.request).then(leanResult));
    case "verifyPrepared":
      return withVerifier(call, (verifier) =>
        verifier.verify(call.request).then((result) => prepareAnswer(result, call.options)),
      );
    case "runLayer":
      return withVerifier(call, (verifier) =>
        verifier.runLayer(call.layer, call.text, call.context, call.sources),
      );
    case "assessRisk":
      return withVerifier(call, (verifier) => verifier.assessRisk(call.text, call.context));
    case "validateNumbersJson":
      return Promise.resolve().then(() => JSON.stringify(validateNumbers(call.input)));
    case "readJson":
      return Promise.resolve().then(() => readJsonBytes(call.bytes, call.maxDepth));
    case "updateCalibration":
      return updateCalibration(call.models);
    case "warmUp":
      return warmUp(call);
    case "stopWarmUp":
      for (const warming of warmingUp) warming.abort(stoppedWarmUp);
      return Promise.resolve();
    case "release":
      return release();
    case "cacheStats":
      return workerCacheStats();
  }
};

/** The warm-ups under way, which `stopWarmUp` ends. */
const warmingUp = new Set<AbortController>();
const stoppedWarmUp = "stopped by the pool";

/**
 * The warm-up runs in a verifier of its own, built the same way: the code it compiles is the module's, shared
 * with the worker's verifier, while its events reach no subscriber (no metric counts a made-up answer) and its
 * caches are dropped with it.
 */
const warmUp = async (call: Extract<WorkerCall, { op: "warmUp" }>) => {
  const own = createVerifier(await verifierConfig());
  // Messages are answered as they arrive, and the warm-up yields between two made-up checks, so a `stopWarmUp`
  // sent meanwhile is read before the next one.
  const warming = new AbortController();
  warmingUp.add(warming);
  try {
    const report = await warmUpVerifier(own, {
      ...(call.maxVerifications === undefined ? {} : { maxVerifications: call.maxVerifications }),
      ...(call.maxMs === undefined ? {} : { maxMs: call.maxMs }),
      signal: warming.signal,
    });
    return warming.signal.aborted ? { ...report, stoppedBy: stoppedWarmUp } : report;
  } finally {
    warmingUp.delete(warming);
    await own.close();
  }
};

// The large sources the pool may name instead of sending again (kept-sources.ts).
const keptSources = keptSourcesStore();

/**
 * Answers a call once it has run: its value, or its error as a typed failure. Rejects only when the answer
 * cannot be posted, which ends the worker as any unhandled rejection does (the pool then fails its calls).
 */
const reply = (call: WorkerCall): Promise<void> =>
  answer(call).then(
    (value) => send({ kind: "result", id: call.id, value }, movableBuffers(call, value)),
    (error: unknown) => send({ kind: "failure", id: call.id, error: serializeError(error) }),
  );

/** The calls that verify or read a text: the work a caller waits for, taken in turn. */
const takesTurns = (call: WorkerCall): boolean => {
  switch (call.op) {
    case "verify":
    case "verifyLean":
    case "verifyPrepared":
    case "runLayer":
    case "assessRisk":
    case "validateNumbersJson":
    case "readJson":
      return true;
    case "updateCalibration":
    case "warmUp":
    case "stopWarmUp":
    case "release":
    case "cacheStats":
      return false;
  }
};

/**
 * Verification calls run one at a time, taken from their owners in turn (fair-queue.ts): a worker holding 32
 * calls of one API key and one of another's runs the other's next, where in arrival order it waited behind all
 * 32. One at a time loses nothing: the offline layers only compute and never wait, so calls already ran one
 * after the other (a server's throughput and p50 were the same either way; docs/BENCHMARKS.md, stop 53). The
 * next call starts from `setImmediate`, after the messages that arrived meanwhile are read, so a call that came
 * during a verification takes its turn ahead of the owner taken last. Calls that change the worker (calibration,
 * release, warm-up) run as they arrive, as before.
 */
const waiting = fairQueue<WorkerCall>();
let busy = false;
const runNext = (): void => {
  const call = waiting.shift();
  busy = call !== undefined;
  if (call !== undefined) void reply(call).finally(() => setImmediate(runNext));
};

port.on("message", (sent: WorkerCall) => {
  let call: WorkerCall;
  try {
    // Applied as each message arrives, in the order the pool sent them, so its record stays this store's.
    call = keptSources.incoming(sent);
  } catch (error) {
    send({ kind: "failure", id: sent.id, error: serializeError(error) });
    return;
  }
  if (!takesTurns(call)) {
    void reply(call);
    return;
  }
  waiting.push(call.owner ?? "", call);
  if (!busy) runNext();
});
send({ kind: "ready" });
