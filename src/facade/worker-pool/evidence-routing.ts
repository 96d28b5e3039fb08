import { LRUCache } from "lru-cache";
import { fnv1a, fnvOffset, fnvPrime } from "../../model/fnv1a.js";
import type { CallBody } from "./worker-slots.js";

/** What a call carries, read without trusting its shape: the worker decodes requests, not the pool. */
export type Carried =
  | {
      readonly text?: unknown;
      readonly context?: unknown;
      readonly question?: unknown;
      readonly sources?: unknown;
      readonly evidence?: unknown;
    }
  | null
  | undefined;

/** What a call carries to its worker: a request, a numbers input, or the call's own fields. */
export const carriedBy = (body: CallBody): Carried => {
  switch (body.op) {
    case "verify":
    case "verifyLean":
    case "verifyPrepared":
      return body.request as Carried;
    case "validateNumbersJson":
      return body.input as Carried;
    case "runLayer":
    case "assessRisk":
      return body as Carried;
    case "updateCalibration":
    case "warmUp":
    case "stopWarmUp":
    case "readJson":
    case "release":
    case "cacheStats":
      return undefined;
  }
};

/** A short sample of a text: its length and up to 64 characters at its start, middle and end. */
const sampleOf = (value: string): string => {
  const middle = Math.max(0, Math.floor(value.length / 2) - 32);
  return `${value.length}:${value.slice(0, 64)}${value.slice(middle, middle + 64)}${value.slice(-64)}\u0000`;
};

/** One text of the evidence a call carries (a source, a numbers call's evidence text, the context). */
export interface EvidenceText {
  /** Read from a sample of the text, as `evidenceFingerprint` reads the set. */
  readonly fingerprint: number;
  /** Its length: what a worker saves by holding its reading. */
  readonly chars: number;
}

/** The evidence a call carries: each text, and a fingerprint of the whole set (undefined when it carries none). */
export interface CarriedEvidence {
  readonly texts: readonly EvidenceText[];
  readonly fingerprint: number | undefined;
}

/**
 * The evidence a call carries, each text fingerprinted from samples of it, never the whole of it, so reading
 * a 10 MB source costs the same as a 10 KB one; two texts that differ only outside the samples share a
 * fingerprint, which only decides where a call runs, never what it answers.
 */
export const carriedEvidence = (body: CallBody): CarriedEvidence => {
  const carried = carriedBy(body);
  const texts: EvidenceText[] = [];
  // The set's fingerprint mixes its texts' fingerprints in order (FNV-1a over them), so no sample is hashed twice.
  let set = fnvOffset;
  const add = (value: unknown) => {
    if (typeof value !== "string") return;
    const fingerprint = fnv1a(sampleOf(value));
    set = Math.imul(set ^ fingerprint, fnvPrime) >>> 0;
    texts.push({ fingerprint, chars: value.length });
  };
  if (Array.isArray(carried?.sources)) for (const source of carried.sources) add(source);
  if (Array.isArray(carried?.evidence)) for (const source of carried.evidence) add((source as Carried)?.text);
  add(carried?.context);
  return { texts, fingerprint: texts.length === 0 ? undefined : set };
};

/** What a call that is not routed by its evidence carries for the router: nothing to remember. */
const unread: CarriedEvidence = { texts: [], fingerprint: undefined };

/**
 * A fingerprint of the evidence a call carries (sources, context, a numbers call's evidence), or undefined when
 * it carries none: calls with the same evidence get the same fingerprint.
 */
export const evidenceFingerprint = (body: CallBody): number | undefined => carriedEvidence(body).fingerprint;

/** A worker as the router sees it: how many calls it has in flight. */
export interface RoutedWorker {
  readonly pending: { readonly size: number };
}

/**
 * How many more calls in flight than the least busy worker the worker that holds a call's evidence may have and
 * still get it: a cache hit saves reading the sources again, but not at the price of a queue.
 */
export const affinitySlack = 2;

/**
 * How many evidence texts the router remembers the worker of (a fingerprint and a worker each): more than the
 * workers' caches of single sources keep between them (2,048 sources per layer and worker by default), so a
 * text a worker may still hold is rarely forgotten.
 */
export const rememberedTexts = 16_384;

/** Where each call goes, among a lane's workers, by the evidence they were sent before. */
export interface EvidenceRouter<W extends RoutedWorker> {
  /** The worker for a call, and the evidence it carries (to `remember` once the call is sent). */
  readonly choose: (
    workers: readonly W[],
    leastBusy: W,
    body: CallBody,
  ) => { readonly worker: W; readonly evidence: CarriedEvidence };
  /** That a call with this evidence was sent to `worker`: its caches may now hold each text's reading. */
  readonly remember: (evidence: CarriedEvidence, worker: W) => void;
}

/**
 * Routes calls to the worker whose caches may hold the most of their evidence. Each worker keeps its own caches
 * of each source's reading, so a call whose documents were sent before, alone or among others, is cheapest on
 * the worker they went to: the router remembers, per text, the worker it was last sent to, and gives a call to
 * the worker that was sent the most of its characters, unless that worker has more calls in flight than the
 * least busy by more than `affinitySlack` (then the next such worker within it, or the least busy). Documents
 * that recur thus settle on one worker each, and the workers' caches together hold about as many documents as
 * there are workers times one cache, where routing by the whole set let each worker read most of them.
 * Evidence no worker has seen gains nothing from any worker's caches, so it goes to the least busy: the worker
 * its set's fingerprint names only when that one is as idle (spreading new evidence over the pool by its hash),
 * never behind calls the others are free of. Calls without evidence go to the least busy.
 */
export const makeEvidenceRouter = <W extends RoutedWorker>(): EvidenceRouter<W> => {
  const holders = new LRUCache<number, W>({ max: rememberedTexts });
  return {
    choose: (workers, leastBusy, body) => {
      // One worker has no choice to make: its calls' evidence is not read, nor remembered.
      if (workers.length < 2) return { worker: leastBusy, evidence: unread };
      const evidence = carriedEvidence(body);
      if (evidence.fingerprint === undefined) return { worker: leastBusy, evidence };
      const within = leastBusy.pending.size + affinitySlack;
      let held: Map<W, number> | undefined;
      for (const text of evidence.texts) {
        const holder = holders.get(text.fingerprint);
        if (holder === undefined || holder.pending.size > within || !workers.includes(holder)) continue;
        held ??= new Map();
        held.set(holder, (held.get(holder) ?? 0) + text.chars);
      }
      if (held !== undefined) {
        let chosen = leastBusy;
        let most = -1;
        for (const [worker, chars] of held)
          if (chars > most || (chars === most && worker.pending.size < chosen.pending.size)) {
            chosen = worker;
            most = chars;
          }
        return { worker: chosen, evidence };
      }
      const named = workers[evidence.fingerprint % workers.length] as W;
      return { worker: named.pending.size === leastBusy.pending.size ? named : leastBusy, evidence };
    },
    remember: (evidence, worker) => {
      for (const text of evidence.texts) holders.set(text.fingerprint, worker);
    },
  };
};
