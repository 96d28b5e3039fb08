import type { Payload } from "./real-payloads.js";

/**
 * Requests whose documents recur in new company, as a retrieval system hands them out: `count` of the payloads,
 * evenly spread over them (the payloads come set after set), and `next(index)` gives payload `index` its own
 * answer and sources with one source swapped for a document drawn from all the chosen payloads' sources, in a new
 * order. So no evidence set repeats (in practice) and its documents do. Seeded (mulberry32): the same requests
 * on every run.
 */
export const recurringDocuments = (everyPayload: readonly Payload[], count: number, seed = 21) => {
  const wanted = Math.min(everyPayload.length, count);
  const payloads = Array.from(
    { length: wanted },
    (_, at) => everyPayload[Math.floor((at * everyPayload.length) / wanted)] as Payload,
  );
  const documents = [...new Set(payloads.flatMap((payload) => payload.sources))];
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    payloads,
    documents,
    documentChars: documents.reduce((sum, document) => sum + document.length, 0),
    /** Payload `index`'s request in a new company, as JSON. */
    next: (index: number): string => {
      const payload = payloads[index % payloads.length] as Payload;
      const sources = [...payload.sources];
      const drawn = documents[Math.floor(random() * documents.length)] as string;
      sources[Math.floor(random() * sources.length)] = drawn;
      for (let at = sources.length - 1; at > 0; at--) {
        const other = Math.floor(random() * (at + 1));
        [sources[at], sources[other]] = [sources[other] as string, sources[at] as string];
      }
      return JSON.stringify({ text: payload.text, sources });
    },
  };
};
