import { stem } from "../../text/tokens.js";
import type { ClaimContext, GroundingFinding } from "./claim-context.js";
import { findSwap } from "./neighbourhood.js";

const pairs: readonly (readonly [string, string])[] = [
  ["increase", "decrease"],
  ["increase", "reduce"],
  ["increase", "cut"],
  ["rise", "fall"],
  ["rise", "drop"],
  ["rise", "decline"],
  ["grow", "shrink"],
  ["grow", "decline"],
  ["gain", "loss"],
  ["gain", "lose"],
  ["higher", "lower"],
  ["high", "low"],
  ["up", "down"],
  ["more", "less"],
  ["more", "fewer"],
  ["most", "least"],
  ["before", "after"],
  ["win", "lose"],
  ["won", "lost"],
  ["include", "exclude"],
  ["including", "excluding"],
  ["accept", "reject"],
  ["approve", "reject"],
  ["allow", "prohibit"],
  ["allow", "forbid"],
  ["open", "close"],
  ["opened", "closed"],
  ["buy", "sell"],
  ["bought", "sold"],
  ["start", "end"],
  ["begin", "end"],
  ["first", "last"],
  ["positive", "negative"],
  ["strong", "weak"],
  ["stronger", "weaker"],
  ["success", "failure"],
  ["succeed", "fail"],
  ["profit", "loss"],
  ["major", "minor"],
  ["maximum", "minimum"],
  ["agree", "disagree"],
  ["above", "below"],
  ["old", "new"],
  ["older", "newer"],
  ["early", "late"],
  ["earlier", "later"],
  ["true", "false"],
  ["possible", "impossible"],
  ["like", "dislike"],
  ["love", "hate"],
  ["happy", "sad"],
  ["best", "worst"],
  ["better", "worse"],
  ["large", "small"],
  ["larger", "smaller"],
  ["big", "small"],
  ["bigger", "smaller"],
  ["long", "short"],
  ["longer", "shorter"],
  ["expand", "contract"],
  ["add", "remove"],
  ["import", "export"],
  ["present", "absent"],
  ["same", "different"],
  ["always", "never"],
  ["enable", "disable"],
  ["hire", "fire"],
  ["north", "south"],
  ["east", "west"],
  ["fast", "slow"],
  ["faster", "slower"],
  ["easy", "difficult"],
  ["easy", "hard"],
  ["hot", "cold"],
  ["cheap", "expensive"],
  ["rich", "poor"],
  ["young", "old"],
  ["inside", "outside"],
  ["arrive", "leave"],
  ["arrive", "depart"],
  ["pass", "fail"],
  ["support", "oppose"],
  ["strengthen", "weaken"],
  ["confirm", "deny"],
  ["public", "private"],
  ["domestic", "foreign"],
  ["internal", "external"],
  ["upper", "lower"],
  ["remember", "forget"],
  ["legal", "illegal"],
  ["accurate", "inaccurate"],
  ["complete", "incomplete"],
  ["able", "unable"],
  ["likely", "unlikely"],
  ["men", "women"],
  ["male", "female"],
  ["husband", "wife"],
  ["boy", "girl"],
  ["brother", "sister"],
  ["father", "mother"],
  ["son", "daughter"],
  ["king", "queen"],
  ["morning", "evening"],
  ["day", "night"],
  ["today", "yesterday"],
  ["today", "tomorrow"],
  ["top", "bottom"],
  ["left", "right"],
  ["front", "back"],
  ["full", "empty"],
  ["heavy", "light"],
  ["wet", "dry"],
  ["clean", "dirty"],
  ["safe", "dangerous"],
  ["friend", "enemy"],
  ["ally", "enemy"],
  ["victory", "defeat"],
  ["increased", "decreased"],
  ["improve", "worsen"],
  ["improved", "worsened"],
  ["boost", "cut"],
  ["upgrade", "downgrade"],
  ["surplus", "deficit"],
  ["overestimate", "underestimate"],
  ["attack", "defend"],
  ["guilty", "innocent"],
  ["acquit", "convict"],
  ["permanent", "temporary"],
  ["minimum", "maximum"],
  ["over", "under"],
  ["slight", "significant"],
  ["upward", "downward"],
  ["exceed", "miss"],
  ["beat", "miss"],
  ["peaceful", "violent"],
  ["jump", "fall"],
  ["jump", "drop"],
  ["surge", "plunge"],
  ["raise", "lower"],
  ["optimistic", "pessimistic"],
  ["highest", "lowest"],
  ["accelerate", "slow"],
  ["accelerate", "decelerate"],
  ["advance", "retreat"],
  ["bullish", "bearish"],
  ["senior", "junior"],
  ["majority", "minority"],
  ["ahead", "behind"],
  ["inflow", "outflow"],
  ["tighten", "loosen"],
  ["appreciate", "depreciate"],
  ["favorable", "unfavorable"],
  ["favourable", "unfavourable"],
  ["outperform", "underperform"],
  ["expansion", "contraction"],
  ["growth", "decline"],
  ["improvement", "deterioration"],
  ["easier", "harder"],
  ["win", "loss"],
  ["winner", "loser"],
  ["pro", "con"],
  ["agreed", "refused"],
  ["accepted", "declined"],
  ["same", "opposite"],
  ["similar", "different"],
  ["continue", "stop"],
  ["continue", "discontinue"],
  ["join", "leave"],
  ["hired", "laid"],
  ["arrested", "released"],
  ["alive", "dead"],
  ["survived", "died"],
  ["entered", "exited"],
  ["larger", "lesser"],
  ["greater", "lesser"],
  ["greater", "smaller"],
];

const antonymsByStem: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    const list = map.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    map.set(from, list);
  };
  for (const [left, right] of pairs) {
    link(stem(left), stem(right));
    link(stem(right), stem(left));
  }
  return map;
})();

/** The same opposites as sets, for the slot search. */
const antonymSetsByStem: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  [...antonymsByStem].map(([word, opposites]) => [word, new Set(opposites)] as const),
);

/**
 * A claim word the sources never use whose opposite they do use: "dividend decreased" against "dividend
 * increased". Stronger when the opposite stands in the very passage the claim matches.
 */
export const checkAntonyms = (context: ClaimContext): GroundingFinding[] => {
  const findings: GroundingFinding[] = [];
  context.tokens.forEach((token, position) => {
    const opposites = antonymsByStem.get(token.stem) ?? [];
    if (opposites.length === 0) return;
    const local = findSwap(
      context.tokens,
      position,
      context.aligned,
      antonymSetsByStem.get(token.stem) ?? new Set(opposites),
    )?.token.text;
    const unused = !context.index.stems.has(token.stem);
    const anywhere =
      local ?? (unused ? opposites.find((candidate) => context.index.stems.has(candidate)) : undefined);
    if (anywhere === undefined) return;
    findings.push({
      code: "ANTONYM_CONFLICT",
      message: local
        ? `"${token.text}" where the matching source passage says the opposite ("${local}…")`
        : `"${token.text}" is never said in the sources, which say the opposite ("${anywhere}…") elsewhere`,
      span: token.span,
      penalty: local ? 0.3 : 0.6,
      contradicts: local !== undefined,
    });
  });
  return findings;
};
