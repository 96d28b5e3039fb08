import { Effect, Layer } from "effect";
import {
  type CitationVerdict,
  CitationVerifier,
  type CitationVerifierService,
} from "../citations/citation-verifier.js";
import type { DetectedCitation } from "../citations/detect-citations.js";
import { DuplicateChecker, type DuplicateCheckerService } from "../dedup/duplicate-checker.js";
import { CitationCheckError, DedupError } from "../errors.js";

export interface FakeCitationVerifier extends CitationVerifierService {
  /** Every citation asked about, in order. */
  readonly calls: DetectedCitation[];
}

/**
 * A citation verifier over a fixed set of artifacts: `artifacts[id]` is the text of each existing one (ADR
 * ids as `ADR-003`, commits by hash, URLs in full, issues as `#12`); `unreachable` ids fail as outages.
 */
export const makeFakeCitationVerifier = (
  artifacts: Readonly<Record<string, string>>,
  unreachable: readonly string[] = [],
): FakeCitationVerifier => {
  const calls: DetectedCitation[] = [];
  return {
    calls,
    verify: (citation) =>
      Effect.suspend(() => {
        calls.push(citation);
        if (unreachable.includes(citation.id))
          return Effect.fail(
            new CitationCheckError({ message: "artifact store unreachable", citation: citation.id }),
          );
        const content =
          citation.kind === "commit"
            ? Object.entries(artifacts).find(([id]) => id.startsWith(citation.id))?.[1]
            : artifacts[citation.id];
        const verdict: CitationVerdict =
          content === undefined
            ? { citation, verified: false, reason: `${citation.id} does not exist` }
            : { citation, verified: true, reason: `${citation.id} exists`, content };
        return Effect.succeed(verdict);
      }),
  };
};

export const FakeCitationVerifierLayer = (
  artifacts: Readonly<Record<string, string>>,
  unreachable: readonly string[] = [],
) => Layer.succeed(CitationVerifier, makeFakeCitationVerifier(artifacts, unreachable));

/** A duplicate checker whose provider is down: every check fails. */
export const failingDuplicateChecker: DuplicateCheckerService = {
  check: () => Effect.fail(new DedupError({ message: "memory provider unavailable" })),
  remember: () => Effect.fail(new DedupError({ message: "memory provider unavailable" })),
  forget: () => Effect.void,
};

export const FailingDuplicateCheckerLayer = Layer.succeed(DuplicateChecker, failingDuplicateChecker);
