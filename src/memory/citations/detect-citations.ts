import type { ExtractedCitation } from "../../checks/citations/citation.js";
import { extractCitations } from "../../checks/citations/extract/extract.js";
import type { Span } from "../../model/span.js";

export type CitationKind = "adr" | "commit" | "url" | "issue";

export interface DetectedCitation {
  readonly kind: CitationKind;
  /** The reference as the memory gate reports it: `ADR-003`, the commit hash, the URL, `#123`. */
  readonly id: string;
  readonly span: Span;
  /** The citation module's extraction, handed to its verifiers. */
  readonly extracted: ExtractedCitation;
}

/** Maximum citations taken from one claim. */
export const maxCitationsPerClaim = 20;

const memoryKinds: ReadonlySet<string> = new Set<CitationKind>(["adr", "commit", "url", "issue"]);

const idOf = (citation: ExtractedCitation): string => {
  if (citation.kind === "adr") return `ADR-${citation.value.padStart(3, "0")}`;
  if (citation.kind === "issue") return `#${citation.value}`;
  return citation.value;
};

/**
 * The citations a memory can rest on (ADR, commit, URL, issue), found by the citation module's extractor with
 * its filters: URLs first so their paths yield no commits, commits need a digit and a letter, colours are not
 * issues. On-chain kinds of that module are not memory citations and are left out.
 */
export const detectCitations = (text: string): DetectedCitation[] =>
  extractCitations(text, { maxCitations: maxCitationsPerClaim })
    .citations.filter((citation) => memoryKinds.has(citation.kind))
    .map((citation) => ({
      kind: citation.kind as CitationKind,
      id: idOf(citation),
      span: citation.span,
      extracted: citation,
    }));

/** The evidence object's `sourceId` for a citation: `ADR-003`, `commit:a1b2c3d`, the URL, `issue:#12`. */
export const sourceIdOf = (citation: DetectedCitation): string =>
  citation.kind === "commit"
    ? `commit:${citation.id}`
    : citation.kind === "issue"
      ? `issue:${citation.id}`
      : citation.id;
