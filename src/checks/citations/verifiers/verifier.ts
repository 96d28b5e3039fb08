import type { Effect } from "effect";
import type { CitationCheck, ExtractedCitation } from "../citation.js";

/** Checks of a batch of citations, keyed by `citationKey(kind, value)`. */
export type CitationChecks = ReadonlyMap<string, CitationCheck>;

/**
 * Checks that cited things exist. A verifier receives every citation of its kinds at once and batches its
 * lookups. It never fails: a lookup that could not run becomes an ERROR check, which never counts as a pass.
 */
export interface CitationVerifier {
  readonly name: string;
  readonly kinds: readonly string[];
  readonly verify: (citations: readonly ExtractedCitation[]) => Effect.Effect<CitationChecks>;
}

export const verified = (source: string, detail: string, record?: unknown): CitationCheck => ({
  status: "VERIFIED",
  detail,
  source,
  ...(record === undefined ? {} : { record }),
});
export const notFound = (source: string, detail: string): CitationCheck => ({
  status: "NOT_FOUND",
  detail,
  source,
});
export const checkError = (source: string, detail: string): CitationCheck => ({
  status: "ERROR",
  detail,
  source,
});
