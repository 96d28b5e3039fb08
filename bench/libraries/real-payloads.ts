import { howToGetData } from "../../src/datasets/benchmark-data.js";
import { inputLimits } from "../../src/model/limits.js";
import { readBenchmarkRecords } from "./texts.js";
import { threeWords } from "./word-digits.js";

export interface Payload {
  readonly text: string;
  readonly sources: string[];
}

/**
 * A closing line naming the payload, written under each of its sources: two payloads cut from the same records'
 * contexts would otherwise share sources (about 31% of the characters of the 226 payloads, SummEdits and FRANK
 * holding several answers per document), and the checks keep each source's reading on its own, so a payload
 * would meet sources an earlier payload left in a cache. Words, not figures, so the numbers layer reads nothing
 * new; three of 32 words, so every payload has its own.
 */
const filingLine = (payload: number): string => {
  const [first, second, third] = threeWords(payload, filingWords);
  return `\n\nCatalogued as ${first} ${second} ${third}.`;
};

const filingWords = (
  "aster bluebell campion daisy eyebright foxglove gentian heather iris jasmine knapweed lupin mallow nettle " +
  "orchid poppy quince rampion sorrel teasel umbel vetch woad yarrow zinnia burdock comfrey dittany elder fennel " +
  "goldenrod hyssop"
).split(" ");

/**
 * The payload with a closing line of round `round` under each source: the same answer against sources no earlier
 * round sent, so a warm-up round reads them anew whatever caches outlive the round before it.
 */
export const inRound = (payload: Payload, round: number): Payload => ({
  ...payload,
  sources: payload.sources.map((text) => `${text}\n\nRound ${round}.`),
});

/** The labelled files the real-text payloads are cut from, in this order. */
const labelledFiles = ["summedits.jsonl", "begin.jsonl", "frank_cnndm.jsonl", "tatqa.jsonl"];

/**
 * Distinct payloads of about 1 KB of answer against about 10 KB of sources, cut from the labelled sets: the
 * consecutive records of one set are joined (their responses into the answer, their distinct contexts into
 * the sources) until the answer reaches `answerChars` and the sources `sourceChars`; every source then closes
 * with a line naming its payload (`filingLine`), so no two payloads share a source.
 */
export const buildPayloads = async (answerChars = 1_000, sourceChars = 10_000): Promise<Payload[]> =>
  (await buildLabelledPayloads(answerChars, sourceChars)).map(({ payload }) => payload);

/** A payload and the labelled set it was cut from ("tatqa", "summedits"...). */
export interface LabelledPayload {
  readonly set: string;
  readonly payload: Payload;
}

/** `buildPayloads`' payloads, in the same order, each with the set it was cut from. */
export const buildLabelledPayloads = async (
  answerChars = 1_000,
  sourceChars = 10_000,
): Promise<LabelledPayload[]> => {
  const payloads: LabelledPayload[] = [];
  for (const name of labelledFiles) {
    const records = (await readBenchmarkRecords(name)).filter((record) => record.response && record.context);
    let answer = "";
    let sources: string[] = [];
    let size = 0;
    const seen = new Set<string>();
    for (const record of records) {
      if (answer.length < answerChars) answer += `${record.response} `;
      if (!seen.has(record.context as string) && size < sourceChars) {
        seen.add(record.context as string);
        sources.push(record.context as string);
        size += (record.context as string).length;
      }
      if (answer.length >= answerChars && size >= sourceChars) {
        const tagged = sources.map((source) => `${source}${filingLine(payloads.length)}`);
        payloads.push({
          set: name.replace(/\.jsonl$/, ""),
          payload: { text: answer.trim(), sources: tagged },
        });
        answer = "";
        sources = [];
        size = 0;
        seen.clear();
      }
    }
  }
  if (payloads.length === 0) throw new Error(`no labelled data: ${howToGetData}`);
  return payloads;
};

/**
 * The first `count` payloads of `buildLabelledPayloads`, of one labelled set when `set` is given (a paired
 * bench's `--set` and `--payloads`). A set with no payloads ends the process with status 2, naming the sets.
 */
export const payloadsOfSet = async (set: string | undefined, count: number): Promise<Payload[]> => {
  const payloads = (await buildLabelledPayloads())
    .filter((labelled) => set === undefined || labelled.set === set)
    .map(({ payload }) => payload)
    .slice(0, count);
  if (payloads.length === 0) {
    process.stderr.write(`no payloads of the set ${set}: summedits, begin, frank_cnndm or tatqa\n`);
    process.exit(2);
  }
  return payloads;
};

/**
 * About `chars` characters of real sources: the distinct contexts of the labelled sets in file order, cycled
 * when they hold fewer (the four sets hold about 2 million characters), packed into sources of at most one
 * source's input limit (`inputLimits.sourceChars`), as a long filing split in parts would be sent.
 */
export const largeSources = async (chars: number): Promise<string[]> => {
  const contexts = new Set<string>();
  for (const name of labelledFiles)
    for (const record of await readBenchmarkRecords(name)) if (record.context) contexts.add(record.context);
  if (contexts.size === 0) throw new Error(`no labelled data: ${howToGetData}`);
  const sources: string[] = [];
  let current: string[] = [];
  let currentChars = 0;
  let total = 0;
  while (total < chars)
    for (const context of contexts) {
      if (total >= chars) break;
      const piece = context.slice(0, Math.min(context.length, chars - total, inputLimits.sourceChars - 2));
      if (currentChars + piece.length + 2 > inputLimits.sourceChars) {
        sources.push(current.join("\n\n"));
        current = [];
        currentChars = 0;
      }
      current.push(piece);
      currentChars += piece.length + 2;
      total += piece.length + 2;
    }
  if (current.length > 0) sources.push(current.join("\n\n"));
  return sources;
};
