import { stem } from "../../text/tokens.js";

const stemsOf = (lines: readonly string[]): ReadonlySet<string> =>
  new Set(lines.flatMap((line) => line.split(" ")).map((word) => stem(word)));

/**
 * Words that name how a figure was derived from others, or the direction of a change: no source writes "grew"
 * or "average" next to the figures a derivation used. In a claim holding a figure the numbers layer derived
 * with the operation the wording names, they count as found.
 */
export const operationStems = stemsOf([
  "change changed changes difference increase increased increases decrease decreased decreases",
  "grew grow grown growth rose rise risen rises fell fall fallen falls declined decline declines dropped drop",
  "drops gained gain gains higher lower total totaled totalled sum combined average averaged mean ratio",
  "percentage percent share proportion portion margin",
]);

/** The words that frame a derivation: "from 2022 to 2023", "by $0.8 million", "between A and B", "than". */
export const framingStems = stemsOf(["from to by between over compared versus vs than"]);
