import { Effect } from "effect";
import {
  type CitationCheck,
  citationKey,
  type ExtractedCitation,
  type VerifiedCitation,
} from "./citation.js";
import { type CitationVerifier, checkError, notFound, verified } from "./verifiers/verifier.js";

export interface VerificationPlan {
  /** Tried in order: the first verifier that handles a kind checks every citation of that kind. */
  readonly verifiers: readonly CitationVerifier[];
  /** Asked about the transactions and blocks the verifiers did not find (JSON-RPC). */
  readonly fallback?: CitationVerifier;
}

const unique = (citations: readonly ExtractedCitation[]): ExtractedCitation[] => {
  const seen = new Map<string, ExtractedCitation>();
  for (const citation of citations) {
    const key = citationKey(citation.kind, citation.value);
    if (!seen.has(key)) seen.set(key, citation);
  }
  return [...seen.values()];
};

const fromFallback = (first: CitationCheck, second: CitationCheck | undefined): CitationCheck => {
  if (second === undefined) return first;
  if (second.status === "VERIFIED") return second;
  if (second.status === "NOT_FOUND") return notFound(second.source, `${first.detail}; ${second.detail}`);
  return checkError(second.source, `${first.detail}; ${second.detail}`);
};

/**
 * Checks every citation: malformed values are NOT_FOUND without a lookup, well-formed timestamps are taken
 * as written (they are compared with records later), each kind goes to its verifier in one batch, store
 * misses go to the fallback, and a kind no verifier handles is an ERROR: never a silent pass.
 */
export const verifyCitations = (
  citations: readonly ExtractedCitation[],
  plan: VerificationPlan,
): Effect.Effect<VerifiedCitation[]> =>
  Effect.gen(function* () {
    const checks = new Map<string, CitationCheck>();
    const pending: ExtractedCitation[] = [];
    for (const citation of unique(citations)) {
      const key = citationKey(citation.kind, citation.value);
      if (citation.formatProblem !== undefined) checks.set(key, notFound("format", citation.formatProblem));
      else pending.push(citation);
    }
    const assigned = new Map<CitationVerifier, ExtractedCitation[]>();
    for (const citation of pending) {
      const verifier = plan.verifiers.find((candidate) => candidate.kinds.includes(citation.kind));
      const key = citationKey(citation.kind, citation.value);
      if (verifier) {
        // Added in place: a copy per citation made ten thousand citations of one kind cost their square.
        const batch = assigned.get(verifier);
        if (batch) batch.push(citation);
        else assigned.set(verifier, [citation]);
      } else if (citation.kind === "timestamp") checks.set(key, verified("format", "well-formed timestamp"));
      else checks.set(key, checkError("none", `no verifier configured for ${citation.kind} citations`));
    }
    const results = yield* Effect.forEach([...assigned], ([verifier, batch]) => verifier.verify(batch), {
      concurrency: "unbounded",
    });
    for (const result of results) for (const [key, check] of result) checks.set(key, check);

    const fallback = plan.fallback;
    if (fallback) {
      const misses = pending.filter(
        (citation) =>
          fallback.kinds.includes(citation.kind) &&
          checks.get(citationKey(citation.kind, citation.value))?.status === "NOT_FOUND",
      );
      if (misses.length > 0) {
        const second = yield* fallback.verify(misses);
        for (const citation of misses) {
          const key = citationKey(citation.kind, citation.value);
          const first = checks.get(key);
          if (first) checks.set(key, fromFallback(first, second.get(key)));
        }
      }
    }
    return citations.map((citation) => ({
      citation,
      check:
        checks.get(citationKey(citation.kind, citation.value)) ??
        checkError("none", "citation was not checked"),
    }));
  });
