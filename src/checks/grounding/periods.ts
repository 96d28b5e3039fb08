import type { Claim } from "../../model/layer.js";
import type { Span } from "../../model/span.js";
import { findPeriods, type PeriodMention, samePeriod } from "../../text/periods.js";
import type { SourceIndex } from "./source-index.js";

const periodsOfSources = new WeakMap<SourceIndex, readonly PeriodMention[]>();

const sourcePeriods = (index: SourceIndex): readonly PeriodMention[] => {
  let periods = periodsOfSources.get(index);
  if (periods === undefined) {
    periods = index.passages.flatMap((passage) => findPeriods(passage.text));
    periodsOfSources.set(index, periods);
  }
  return periods;
};

/**
 * The spans of a claim's periods that the sources name too, however either writes it ("Q3 2025" in the claim,
 * "the third quarter of 2025" in a source). Grounding treats the words of such a span as found, like a
 * number the numbers layer traced; a period the sources do not name is left to the usual checks. The
 * sources are read for periods only when the claim names one.
 */
export const periodsInSources = (index: SourceIndex, claim: Claim): Span[] => {
  const claimed = findPeriods(claim.text, claim.span.start);
  if (claimed.length === 0) return [];
  const stated = sourcePeriods(index);
  return claimed
    .filter((period) => stated.some((source) => samePeriod(period, source)))
    .map((period) => period.span);
};
