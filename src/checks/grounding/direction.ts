import { stem } from "../../text/tokens.js";
import type { ClaimContext, GroundingFinding } from "./claim-context.js";
import { findSwap } from "./neighbourhood.js";

const upward = [
  "increase",
  "increased",
  "increases",
  "increasing",
  "rise",
  "rises",
  "rose",
  "risen",
  "rising",
  "grow",
  "grew",
  "grown",
  "growth",
  "growing",
  "higher",
  "gain",
  "gains",
  "gained",
  "up",
  "jump",
  "jumped",
  "surge",
  "surged",
  "soar",
  "soared",
  "expand",
  "expanded",
  "expansion",
  "improve",
  "improved",
  "improvement",
  "boost",
  "boosted",
  "raise",
  "raised",
  "exceed",
  "exceeded",
  "above",
  "strong",
  "stronger",
  "strengthened",
  "climb",
  "climbed",
  "upward",
  "accelerate",
  "accelerated",
  "profit",
  "profitable",
  "earned",
  "earnings",
  "upturn",
  "recovery",
  "recovered",
  "outperform",
  "outperformed",
  "doubled",
  "tripled",
  "larger",
  "greater",
  "bigger",
  "hike",
  "hiked",
];
const downward = [
  "decrease",
  "decreased",
  "decreases",
  "decreasing",
  "decline",
  "declined",
  "declining",
  "fall",
  "fell",
  "fallen",
  "falling",
  "drop",
  "dropped",
  "lower",
  "lowered",
  "loss",
  "losses",
  "lost",
  "lose",
  "down",
  "shrink",
  "shrank",
  "shrunk",
  "contraction",
  "contracted",
  "cut",
  "cuts",
  "reduce",
  "reduced",
  "reduction",
  "below",
  "fewer",
  "weak",
  "weaker",
  "weakened",
  "plunge",
  "plunged",
  "tumble",
  "tumbled",
  "slump",
  "slumped",
  "slow",
  "slowed",
  "slowdown",
  "downward",
  "decelerate",
  "deficit",
  "downturn",
  "deteriorate",
  "deteriorated",
  "underperform",
  "underperformed",
  "halved",
  "smaller",
  "lesser",
  "sink",
  "sank",
  "slide",
  "slid",
];

const upwardStems: ReadonlySet<string> = new Set(upward.map(stem));
const downwardStems: ReadonlySet<string> = new Set(downward.map(stem));

type Direction = "up" | "down";
const directionOf = (stemmed: string): Direction | undefined =>
  upwardStems.has(stemmed) ? "up" : downwardStems.has(stemmed) ? "down" : undefined;

/**
 * A claim that says a figure went up where the passage says it went down, or the reverse, in other words:
 * "revenue climbed" against "revenue declined". Synonyms keep their direction, so paraphrase passes; the two
 * words must share a neighbourhood, so another figure's movement in the same sentence does not count.
 */
export const checkDirection = (context: ClaimContext): GroundingFinding[] => {
  const findings: GroundingFinding[] = [];
  context.tokens.forEach((token, position) => {
    const direction = directionOf(token.stem);
    if (!direction) return;
    const opposite = direction === "up" ? downwardStems : upwardStems;
    const sameDirection = direction === "up" ? upwardStems : downwardStems;
    const conflict = findSwap(context.tokens, position, context.aligned, opposite, sameDirection);
    if (!conflict) return;
    findings.push({
      code: "DIRECTION_MISMATCH",
      message: `"${token.text}" says ${direction} where the matching source passage says "${conflict.token.text}": "${conflict.passage.text.slice(0, 160)}"`,
      span: token.span,
      penalty: 0.4,
      contradicts: true,
    });
  });
  return findings;
};
