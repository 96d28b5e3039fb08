/**
 * Large sources kept by a worker between calls, so a source sent again is named, not copied again. A request's
 * `context` is kept as its sources are (at `contextPlace`): an assistant's document is often sent as context on
 * every call of a conversation.
 *
 * Handing a call to a worker copies its texts twice: the pool's thread serializes them and the worker builds
 * new strings from the copy. On large sources that is most of the time a worker spends before it verifies: for
 * 10,000,000 characters of sources, 57-75 ms to serialize and 59-80 ms to rebuild on a 2-core machine, about as
 * long as verifying them (each new string is fresh memory the kernel must hand over page by page). An agent that
 * checks many answers against one filing sends the same sources on every call (inline, or through the server's
 * `sourceRefs`), and the pool routes such calls to the worker that saw them.
 *
 * So the pool's side of each worker remembers which large sources (`minKeptChars` or more) that worker keeps,
 * up to `keptChars` characters, least recently used out first. A call whose source the worker keeps sends an
 * empty string in its place and the source's number; a large source sent for the second time that the worker
 * does not keep is sent whole and kept under a new number (the first time it is only remembered by its
 * fingerprint: sources that never come back are never held). The worker fills the numbered sources in before anything reads the call. Both sides
 * apply the same instructions in the order the calls are sent (one message channel, in order), so the pool's
 * record is the worker's: the pool decides what the worker drops, and the worker never drops a text by itself.
 * A new worker (a replacement) keeps nothing, and a `release` empties both sides.
 */
import { LRUCache } from "lru-cache";
import { type CacheStats, cacheStatsOf, makeCacheCounts } from "../../model/cache-stats.js";
import { makeSecondSight } from "../../text/second-sight.js";
import { type CallBody, contextPlace, type KeptSources } from "./messages.js";

export type { KeptSources } from "./messages.js";

/** Which sources a pool's workers keep between calls (`WorkerPoolOptions.keptSources`), and how many characters. */
export interface KeptSourcesLimits {
  /** Sources shorter than this are always sent whole: copying them costs less than keeping them. */
  readonly minKeptChars: number;
  /** Most characters one worker of the small calls keeps. */
  readonly keptChars: number;
  /**
   * Most characters one worker of the large lane keeps: room for a large call's sources (past the budget, a
   * call that sends the same sources again would find the least recently used ones, its own first, gone).
   */
  readonly largeLaneKeptChars: number;
}

/**
 * Sources of 100,000 characters or more, up to 8,000,000 characters per small-call worker and 16,000,000 per
 * large-lane worker: the size from which copying a source to a worker costs more than keeping it, and room for a
 * large call's sources.
 */
export const defaultKeptSourcesLimits: KeptSourcesLimits = {
  minKeptChars: 100_000,
  keptChars: 8_000_000,
  largeLaneKeptChars: 16_000_000,
};

/** One worker's bounds: which sources it keeps and how many characters in all. */
export interface WorkerKeptLimits {
  readonly minKeptChars: number;
  readonly keptChars: number;
  /**
   * Whether a source is kept only the second time it is sent (its fingerprint seen before, as the index caches
   * admit evidence): sources that never come back are then never held, on either side. The pool's default;
   * off in tests of the protocol itself.
   */
  readonly secondSight?: boolean;
}

/** Fingerprints of sources sent once, remembered per worker. */
const rememberedSightings = 256;

type VerifyBody = Extract<CallBody, { op: "verify" | "verifyLean" | "verifyPrepared" }>;

const isVerifyCall = (body: CallBody): body is VerifyBody =>
  body.op === "verify" || body.op === "verifyLean" || body.op === "verifyPrepared";

/** A call's texts that may be kept: its sources by index, and its context at `contextPlace`. */
const textsOf = (request: VerifyBody["request"]): [number, unknown][] => {
  const texts: [number, unknown][] = Array.isArray(request.sources)
    ? request.sources.map((text, at) => [at, text])
    : [];
  if (request.context !== undefined) texts.push([contextPlace, request.context]);
  return texts;
};

/** The pool's record of what one worker keeps. */
export interface KeptSourcesRecord {
  /** The call as it is sent to this worker: kept sources named, new large ones marked to keep. */
  readonly outgoing: (body: CallBody) => CallBody;
  /** The worker was replaced or released: it keeps nothing. */
  readonly clear: () => void;
  /** Characters the worker keeps (for tests). */
  readonly chars: () => number;
  /**
   * What the record did since the pool opened its slot, its workers replaced or released included: large texts
   * looked up (`pool.kept-texts`), those named instead of sent (hits), those too large to keep, evictions.
   */
  readonly stats: () => CacheStats;
}

export const keptSourcesRecord = (limits: WorkerKeptLimits = defaultKeptSourcesLimits): KeptSourcesRecord => {
  // The drops of the call being sent: what the cache evicts to make room for the call's new sources.
  let dropped: number[] = [];
  const counts = makeCacheCounts();
  // Numbers by text, least recently used out first past the budget. A string key longer than V8 hashes in full
  // is hashed by its length, and the same string object compares at once, so a look-up of a 1,000,000-character
  // source costs a comparison, not a copy.
  const numbers = new LRUCache<string, number>({
    maxSize: Math.max(1, limits.keptChars),
    sizeCalculation: (_number, text) => text.length,
    dispose: (number, _text, reason) => {
      if (reason !== "evict") return;
      dropped.push(number);
      counts.evictions += 1;
    },
  });
  let next = 1;
  // Large sources are not admitted at once here: a source sent once is only remembered.
  const admit =
    (limits.secondSight ?? true)
      ? makeSecondSight({ remember: rememberedSightings, admitAtOnceChars: Number.POSITIVE_INFINITY })
      : () => true;
  const keepable = (text: unknown): text is string =>
    typeof text === "string" &&
    text.length > 0 &&
    text.length >= limits.minKeptChars &&
    text.length <= limits.keptChars;
  const tooLarge = (text: unknown): boolean => typeof text === "string" && text.length > limits.keptChars;
  const outgoing = (body: CallBody): CallBody => {
    if (body.op === "release") {
      numbers.clear();
      return body;
    }
    if (!isVerifyCall(body)) return body;
    // Most calls carry only small texts: they leave here before any list of places is made.
    const { sources, context } = body.request;
    // One pass over the call's texts, no list of places made: this is every small call's way out. The texts too
    // large to keep are counted here only when the call leaves; otherwise the loop below counts them.
    let anyKeepable = keepable(context);
    let tooLargeTexts = tooLarge(context) ? 1 : 0;
    if (!anyKeepable && Array.isArray(sources))
      for (const text of sources) {
        if (keepable(text)) {
          anyKeepable = true;
          break;
        }
        if (tooLarge(text)) tooLargeTexts += 1;
      }
    if (!anyKeepable) {
      counts.bypassed += tooLargeTexts;
      return body;
    }
    const texts = textsOf(body.request);
    // The places whose text is sent empty, because the worker keeps it.
    const emptied = new Set<number>();
    const named: [number, number][] = [];
    const kept: [number, number][] = [];
    dropped = [];
    // Characters of the texts this call names or keeps: the most recently used, so never evicted by it.
    let usedChars = 0;
    // First the texts the worker keeps already, each made the most recently used (`get`), so that keeping this
    // call's new texts never drops one it names.
    for (const [at, text] of texts) {
      if (!keepable(text)) {
        if (tooLarge(text)) counts.bypassed += 1;
        continue;
      }
      counts.lookups += 1;
      const known = numbers.get(text);
      if (known === undefined) continue;
      counts.hits += 1;
      if (!named.some(([, number]) => number === known)) usedChars += text.length;
      named.push([at, known]);
      emptied.add(at);
    }
    // Then the new ones, when they fit beside the texts this call uses (the cache drops others, least recently
    // used first); a text that finds no room is sent whole and not kept.
    for (const [at, text] of texts) {
      if (!keepable(text) || emptied.has(at)) continue;
      const known = numbers.get(text);
      if (known !== undefined) {
        // Sent twice in this call: kept at its first place, named at this one.
        named.push([at, known]);
        emptied.add(at);
        continue;
      }
      if (usedChars + text.length > limits.keptChars || !admit([text])) continue;
      const number = next++;
      numbers.set(text, number);
      usedChars += text.length;
      kept.push([at, number]);
    }
    if (named.length === 0 && kept.length === 0 && dropped.length === 0) return body;
    const keptSources: KeptSources = { kept, named, dropped };
    const request = { ...body.request };
    if (Array.isArray(request.sources))
      request.sources = request.sources.map((text, at) => (emptied.has(at) ? "" : text));
    if (emptied.has(contextPlace)) request.context = "";
    return { ...body, request, keptSources };
  };
  const stats = () =>
    cacheStatsOf("pool.kept-texts", counts, {
      entries: numbers.size,
      characters: numbers.calculatedSize,
      maxCharacters: limits.keptChars,
    });
  return { outgoing, clear: () => numbers.clear(), chars: () => numbers.calculatedSize, stats };
};

/**
 * The worker's side: the texts it keeps, by number. `incoming` fills a call's named sources in and applies its
 * keeps and drops, before anything reads the call; a number it does not hold (the two sides out of step, which
 * the single ordered channel rules out) fails the call rather than verify against an empty source.
 */
export const keptSourcesStore = () => {
  const texts = new Map<number, string>();
  const incoming = <C extends { readonly op: string; readonly keptSources?: KeptSources }>(call: C): C => {
    if (call.op === "release") texts.clear();
    const instructions = call.keptSources;
    if (instructions === undefined) return call;
    const request = (call as unknown as { request: { sources?: string[]; context?: string } }).request;
    const sources = request.sources === undefined ? [] : [...request.sources];
    let context = request.context;
    const textAt = (at: number) => (at === contextPlace ? context : sources[at]);
    // Kept first: a call may send one text twice, whole where it first appears and named after.
    for (const [at, number] of instructions.kept) texts.set(number, textAt(at) as string);
    for (const [at, number] of instructions.named) {
      const text = texts.get(number);
      if (text === undefined) throw new Error(`the worker holds no kept source ${number}`);
      if (at === contextPlace) context = text;
      else sources[at] = text;
    }
    for (const number of instructions.dropped) texts.delete(number);
    const { keptSources: _, ...rest } = call as C & { request: object };
    const filled = {
      ...request,
      ...(request.sources === undefined ? {} : { sources }),
      ...(context === undefined ? {} : { context }),
    };
    return { ...rest, request: filled } as unknown as C;
  };
  return { incoming, size: () => texts.size };
};
