import type { Span } from "../../model/span.js";

/** The built-in citation kinds; configuration may add more (a pattern plus a verifier). */
export const builtInCitationKinds = [
  "transaction",
  "address",
  "block",
  "timestamp",
  "url",
  "commit",
  "adr",
  "issue",
] as const;
export type BuiltInCitationKind = (typeof builtInCitationKinds)[number];

/** A citation found in a text. `value` is normalized (lower-case hashes, ADR and issue numbers without zeros). */
export interface ExtractedCitation {
  readonly kind: string;
  readonly value: string;
  /** The matched text as written, e.g. `[TX:0x...]`. */
  readonly raw: string;
  /** Offsets into the text the citation was extracted from. */
  readonly span: Span;
  /** Up to 50 characters either side of the citation. */
  readonly surroundingText: string;
  /** Set when the value has the right shape but cannot be valid (bad EIP-55 checksum, impossible date). */
  readonly formatProblem?: string;
}

/**
 * What checking a citation found: VERIFIED (the cited thing exists and matches), NOT_FOUND (it does not
 * exist), MISMATCH (it exists but differs from what the text says) or ERROR (the check could not run: it is
 * never a pass).
 */
export type CitationStatus = "VERIFIED" | "NOT_FOUND" | "MISMATCH" | "ERROR";

export interface CitationCheck {
  readonly status: CitationStatus;
  /** Why, in words: "not in the evidence store", "HTTP 404", "found on chain, not in the local store"... */
  readonly detail: string;
  /** Which verifier answered: `store`, `json-rpc`, `git`, `adr`, `url`, `issues` or a custom name. */
  readonly source: string;
  /** The stored record when the verifier has one (used to compare the claim with it). */
  readonly record?: unknown;
}

/** A citation and what its verification found. */
export interface VerifiedCitation {
  readonly citation: ExtractedCitation;
  readonly check: CitationCheck;
}

/** The identity of a cited thing: the same value cited twice is looked up once. */
export const citationKey = (kind: string, value: string): string => `${kind}\u0000${value}`;
