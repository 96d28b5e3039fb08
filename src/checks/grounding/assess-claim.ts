import type { ClaimFinding, ClaimVerdict, Evidence } from "../../model/claim.js";
import type { Claim } from "../../model/layer.js";
import type { Span } from "../../model/span.js";
import { contentTokens, tokenize } from "../../text/tokens.js";
import { alignClaim, alignmentWindow } from "./align.js";
import { checkAntonyms } from "./antonyms.js";
import { checkCategoricalValues } from "./categories.js";
import type { ClaimContext, GroundingCheck, GroundingFinding, StemLookup } from "./claim-context.js";
import { type CoverageWeights, coverage } from "./coverage.js";
import { checkDirection } from "./direction.js";
import { checkEntities } from "./entities.js";
import { isExplained } from "./explained-numbers.js";
import { checkNumbers } from "./numbers.js";
import { pairShareOf } from "./pair-share.js";
import { checkNegation } from "./polarity.js";
import { checkQuotes } from "./quotes.js";
import type { Passage, SourceIndex } from "./source-index.js";

export interface GroundingOptions {
  /** A claim scoring below this is unsupported. */
  readonly supportThreshold: number;
  readonly coverageWeights: CoverageWeights;
  /** How many passages a claim is aligned to. */
  readonly alignedPassages: number;
  readonly checks: readonly GroundingCheck[];
}

export const defaultGroundingOptions: GroundingOptions = {
  supportThreshold: 0.5,
  coverageWeights: { local: 1, global: 0.5, functionWord: 1 },
  alignedPassages: 3,
  checks: [
    checkNumbers,
    checkEntities,
    checkQuotes,
    checkNegation,
    checkAntonyms,
    checkCategoricalValues,
    checkDirection,
  ],
};

export interface ClaimAssessment {
  readonly finding: ClaimFinding;
  /** False for claims with no content words ("Yes.", "Thanks!"): nothing to ground. */
  readonly checkable: boolean;
  readonly coverage: number;
}

const verdictOf = (
  score: number,
  findings: readonly GroundingFinding[],
  options: GroundingOptions,
): ClaimVerdict => {
  if (findings.some((finding) => finding.contradicts)) return "contradicted";
  return score < options.supportThreshold ? "unsupported" : "supported";
};

const evidenceOf = (context: ClaimContext, verdict: ClaimVerdict): Evidence[] => {
  const claimStems = new Set(context.contentTokens.map((token) => token.stem));
  return context.alignments.map(({ passage }, rank) => {
    let shared = 0;
    for (const stem of claimStems) if (passage.stems.has(stem)) shared++;
    return {
      source: passage.source,
      span: { start: passage.start, end: passage.end },
      text: passage.text,
      score: claimStems.size > 0 ? shared / claimStems.size : 0,
      relation:
        rank === 0 && verdict === "contradicted"
          ? "contradicts"
          : rank === 0 && verdict === "supported"
            ? "supports"
            : "related",
    };
  });
};

/**
 * The stems of a few passages, looked up in each passage's own set of stems: the checks ask about a claim's
 * few words, so no union of the passages' stems is built.
 */
class PassageStems implements StemLookup {
  readonly #passages: readonly Passage[];

  constructor(passages: readonly Passage[]) {
    this.#passages = passages;
  }

  has(stem: string): boolean {
    for (const passage of this.#passages) if (passage.stems.has(stem)) return true;
    return false;
  }
}

/** Aligns one claim to the evidence, runs every check, and turns the result into a verdict with reasons. */
export const assessClaim = (
  index: SourceIndex,
  claim: Claim,
  options: GroundingOptions,
  explainedNumbers: readonly Span[],
): ClaimAssessment => {
  const tokens = tokenize(claim.text, claim.span.start);
  const content = contentTokens(tokens);
  const { alignments, mostSharedStems, claimStems } = alignClaim(index, content, options.alignedPassages);
  const window = alignmentWindow(index, alignments);
  const windowStems = new PassageStems(window);
  const aligned = alignments.map((alignment) => alignment.passage);
  const alignedStems = new PassageStems(aligned);
  const context: ClaimContext = {
    claim,
    tokens,
    contentTokens: content,
    index,
    alignments,
    window,
    windowStems,
    aligned,
    alignedStems,
  };

  const measured = coverage(index, tokens, windowStems, options.coverageWeights, explainedNumbers);
  const covered = measured.coverage;
  // What the checks say of a number's own words (its digits, its scale word) yields to the numbers layer when
  // that layer traced the number to a figure of the sources.
  const checked = options.checks.flatMap((check) => check(context));
  const findings =
    explainedNumbers.length === 0
      ? checked
      : checked.filter((finding) => !isExplained(explainedNumbers, finding.span));
  const score = Math.max(
    0,
    Math.min(
      1,
      findings.reduce((value, finding) => value * finding.penalty, covered),
    ),
  );
  const verdict = verdictOf(score, findings, options);
  const issues = findings.map((finding) => ({
    code: finding.code,
    message: finding.message,
    span: finding.span,
    layer: "grounding" as const,
  }));
  if (verdict === "unsupported" && issues.length === 0) {
    issues.push({
      code: "LOW_SUPPORT",
      message: `only ${Math.round(covered * 100)}% of the claim's content is found in the sources`,
      span: claim.span,
      layer: "grounding",
    });
  }
  const evidence = evidenceOf(context, verdict);
  return {
    checkable: content.length > 0,
    coverage: covered,
    finding: {
      text: claim.text,
      span: claim.span,
      kind: claim.kind,
      verdict: content.length > 0 ? verdict : "unverifiable",
      score,
      evidence,
      issues,
      layers: ["grounding"],
      signals: {
        localCoverage: measured.local,
        novelty: measured.novel,
        bestPassageShare: claimStems > 0 ? Math.min(1, mostSharedStems / claimStems) : 0,
        pairShare: pairShareOf(tokens, window),
        contentWords: measured.words,
      },
    },
  };
};
