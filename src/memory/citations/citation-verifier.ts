import { Context, type Effect } from "effect";
import type { CitationCheckError } from "../errors.js";
import type { DetectedCitation } from "./detect-citations.js";

export interface CitationVerdict {
  readonly citation: DetectedCitation;
  /** The cited artifact exists (file found, commit known, URL answered 200, issue open or closed). */
  readonly verified: boolean;
  readonly reason: string;
  /** The artifact's text when the verifier read it (ADR body, commit message, page text): for relevance. */
  readonly content?: string;
}

/**
 * The citation port of the memory gate: does a cited artifact exist, and what does it say? A verifier that
 * cannot check (network down, no repository) fails with CitationCheckError; the gate counts that as
 * unverified and never auto-approves on it.
 */
export interface CitationVerifierService {
  readonly verify: (citation: DetectedCitation) => Effect.Effect<CitationVerdict, CitationCheckError>;
}

export class CitationVerifier extends Context.Tag("veracity/memory/CitationVerifier")<
  CitationVerifier,
  CitationVerifierService
>() {}
