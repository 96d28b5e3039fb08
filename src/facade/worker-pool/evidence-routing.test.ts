import { describe, expect, it } from "vitest";
import type { VerificationRequest } from "../../model/request.js";
import {
  affinitySlack,
  carriedEvidence,
  evidenceFingerprint,
  makeEvidenceRouter,
  rememberedTexts,
} from "./evidence-routing.js";
import type { CallBody } from "./worker-slots.js";

/** A worker as the router sees it, with as many calls in flight as `busy` says. */
interface Counted {
  readonly name: string;
  readonly pending: { size: number };
}
const worker = (name: string, busy = 0): Counted => ({ name, pending: { size: busy } });
const verifyCall = (request: VerificationRequest): CallBody => ({ op: "verify", request });
const withSources = (...sources: string[]): CallBody => verifyCall({ text: "an answer", sources });

/** The least busy of the workers, the first of them on a tie (as the pool picks it). */
const leastOf = (workers: readonly Counted[]): Counted =>
  workers.reduce((least, each) => (each.pending.size < least.pending.size ? each : least));

/** A function that routes a call through `router`, sends it (remembers it) and names the worker it went to. */
const routedBy =
  (router: ReturnType<typeof makeEvidenceRouter<Counted>>, workers: readonly Counted[]) =>
  (body: CallBody): string => {
    const { worker: chosen, evidence } = router.choose(workers, leastOf(workers), body);
    router.remember(evidence, chosen);
    return chosen.name;
  };

/** `routedBy` a new router. */
const routed = (workers: readonly Counted[]) => routedBy(makeEvidenceRouter<Counted>(), workers);

/** Documents of `length` characters, each its own text: document n. */
const documents = (count: number, length = 400, from = 0): string[] =>
  Array.from({ length: count }, (_, at) => `Document ${from + at}. `.padEnd(length, "words of a filing "));

/** A set of the given documents plus new ones until its fingerprint names worker `index` of `of` workers. */
const namingWorker = (index: number, of: number, kept: readonly string[], tag: string): string[] => {
  for (let n = 0; ; n++) {
    const set = [...kept, `A new document, ${tag} ${n}.`];
    if ((evidenceFingerprint(withSources(...set)) as number) % of === index) return set;
  }
};

describe("carriedEvidence", () => {
  it("reads each text of sources, numbers evidence and context, and a fingerprint of the whole set", () => {
    const evidence = carriedEvidence(verifyCall({ text: "answer", sources: ["ab", "cde"], context: "f" }));
    expect(evidence.texts.map((text) => text.chars)).toEqual([2, 3, 1]);
    const numbers = carriedEvidence({
      op: "validateNumbersJson",
      input: { text: "answer", evidence: [{ index: 0, origin: "source", text: "ab" }] },
    });
    // The same text has the same fingerprint whatever carries it.
    expect(numbers.texts).toEqual([evidence.texts[0]]);
    expect(carriedEvidence(verifyCall({ text: "answer" }))).toEqual({ texts: [], fingerprint: undefined });
    // Malformed parts are skipped, never thrown on.
    expect(carriedEvidence(verifyCall({ text: "a", sources: ["ab", 5, null] } as never)).texts).toHaveLength(
      1,
    );
    expect(carriedEvidence({ op: "release" }).fingerprint).toBeUndefined();
  });

  it("gives a set's fingerprint by its texts and their order, and a text's the same in any set", () => {
    const [a, b] = documents(2) as [string, string];
    const ab = carriedEvidence(withSources(a, b));
    const ba = carriedEvidence(withSources(b, a));
    expect(ab.fingerprint).not.toBe(ba.fingerprint);
    expect(ab.texts[0]).toEqual(ba.texts[1]);
    expect(ab.texts[0]?.fingerprint).not.toBe(ab.texts[1]?.fingerprint);
  });
});

describe("makeEvidenceRouter", () => {
  it("sends a set whose documents recur among new ones to the worker they were sent to", () => {
    const workers = [worker("first"), worker("second")];
    const route = routed(workers);
    const kept = documents(3);
    const home = route(withSources(...kept));
    const other = home === "first" ? 1 : 0;
    // Each set below has a new document and a fingerprint that names the other worker: with nothing held,
    // the other worker (as idle) would take it.
    expect(route(withSources(...namingWorker(other, 2, [], "alone")))).toBe(workers[other]?.name);
    for (let round = 0; round < 6; round++)
      expect(route(withSources(...namingWorker(other, 2, kept.slice(round % 3), `round ${round}`)))).toBe(
        home,
      );
  });

  it("weighs what each worker was sent by its characters, not by how many texts", () => {
    const workers = [worker("first"), worker("second"), worker("third")];
    const route = routed(workers);
    const [long] = documents(1, 5_000);
    const short = documents(3, 300, 10);
    const longHome = route(withSources(long as string));
    // The short documents each go where nothing is held: to another worker than the long one's.
    workers.find((each) => each.name === longHome)!.pending.size = 1;
    const shortHome = route(withSources(...short));
    workers.find((each) => each.name === longHome)!.pending.size = 0;
    expect(shortHome).not.toBe(longHome);
    expect(route(withSources(...short, long as string))).toBe(longHome);
    // Sent there, the short documents are remembered there now.
    expect(route(withSources(...short))).toBe(longHome);
  });

  it("passes over a holder with more calls in flight than the least busy by more than the slack", () => {
    const workers = [worker("first"), worker("second"), worker("third")];
    const router = makeEvidenceRouter<Counted>();
    const route = routedBy(router, workers);
    const [big] = documents(1, 2_000) as [string];
    const [small] = documents(1, 500, 5) as [string];
    const bigHome = route(withSources(big));
    const holder = workers.find((each) => each.name === bigHome) as Counted;
    holder.pending.size = 1;
    const smallHome = route(withSources(small));
    expect(smallHome).not.toBe(bigHome);
    // Asked, never sent: a set sent would move both documents' holder to where it went.
    const chosenFor = (body: CallBody) => router.choose(workers, leastOf(workers), body).worker.name;
    // The big document's worker, at the slack, still gets the set; one call more and the other holder does.
    holder.pending.size = affinitySlack;
    expect(chosenFor(withSources(big, small))).toBe(bigHome);
    holder.pending.size = affinitySlack + 1;
    expect(chosenFor(withSources(big, small))).toBe(smallHome);
  });

  it("sends calls without evidence, and every call of a single worker, to the least busy", () => {
    const workers = [worker("first", 3), worker("second", 1)];
    const route = routed(workers);
    const [text] = documents(1);
    expect(route(verifyCall({ text: "no evidence" }))).toBe("second");
    const single = [worker("only", 5)];
    expect(routed(single)(withSources(text as string))).toBe("only");
  });

  it("forgets a worker that left the lane, and remembers a bounded number of texts", () => {
    const workers = [worker("first"), worker("second")];
    const router = makeEvidenceRouter<Counted>();
    const [text] = documents(1) as [string];
    const gone = worker("gone");
    router.remember(carriedEvidence(withSources(text)), gone);
    const chosen = router.choose(workers, workers[0] as Counted, withSources(text)).worker;
    expect(workers).toContain(chosen);
    // The oldest text is forgotten once the router holds its bound.
    const second = workers[1] as Counted;
    router.remember(carriedEvidence(withSources(text)), second);
    for (let n = 0; n < rememberedTexts; n++)
      router.remember({ texts: [{ fingerprint: 1e9 + n, chars: 1 }], fingerprint: 1 }, workers[0] as Counted);
    const set = namingWorker(0, 2, [text], "after");
    expect(router.choose(workers, workers[0] as Counted, withSources(...set)).worker).toBe(workers[0]);
  });
});
