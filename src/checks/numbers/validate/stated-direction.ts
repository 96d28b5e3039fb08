import { periodComparison } from "../derive/period-order.js";
import type { Found } from "../derive/search.js";
import type { TopicScore } from "./claim-fit.js";

/** The way a claim says a figure moved: "grew 5%" is up, "fell by $3 million" is down. */
export type Direction = "up" | "down";

const upWords =
  /\b(?:increas(?:e|es|ed|ing)|gr[eo]w(?:s|n|ing)?|rose|ris(?:e|es|en|ing)|gained|climb(?:s|ed|ing)?|jump(?:s|ed)|surg(?:e|es|ed)|higher(?!\s+of\b)|up(?=\s+(?:by\s+)?[-+$€£¥(\d]))\b/gi;

const downWords =
  /\b(?:decreas(?:e|es|ed|ing)|declin(?:e|es|ed|ing)|f[ae]ll(?:s|en|ing)?(?!\s+due\b)|drop(?:s|ped|ping)?|lower(?!\s+of\b)|shr[iu]nk|shrank|shrinks|contracted|reduced|dipped|slipped|plunged|slumped|down(?=\s+(?:by\s+)?[-+$€£¥(\d]))\b/gi;

/**
 * Wording that names both directions or none: "increase / (decrease)", "(increase) decrease", "increases and
 * decreases" name an item of either sign, as do paired words ("gain/loss") and words in parentheses ("Operating
 * income (loss)"); "the change" is a signed figure whose sign is its own ("the change in net decrease in cash").
 */
const eitherSign =
  /\(?\b(?:in|de)creas(?:e|es)\b\)?\s*(?:(?:\/|\bor\b|\band\b)\s*)?\(?\b(?:in|de)creas(?:e|es)\b\)?|\([^()\d]*\)|\b\w+\s*\/\s*\w+\b/gi;
const signedChange = /\bchange[ds]?\b/i;

/** Where one statement ends and another begins: a sentence end, a semicolon, a contrast ("while costs fell"). */
const statementBreak = /[.!?](?=\s|$)|;|\b(?:while|whereas|but|although|though|however)\b/gi;

/**
 * A figure after "from", "to" or "at" is a level the quantity moved between or stood at ("fell from $5 million to
 * $4 million", "stood at 5%"): not a change.
 */
const levelBefore = /\b(?:from|to|at)\s*[-+]?\s*[$€£¥]?\s*$/i;

/** Whether the figure starting at `start` of `text` is written as a level (see levelBefore). */
export const writtenAsLevel = (text: string, start: number): boolean =>
  levelBefore.test(text.slice(Math.max(0, start - 12), start));

const statementAround = (text: string, start: number, end: number): { from: number; to: number } => {
  let from = 0;
  let to = text.length;
  for (const brk of text.matchAll(statementBreak)) {
    const at = brk.index ?? 0;
    if (at + brk[0].length <= start) from = at + brk[0].length;
    else if (at >= end) {
      to = at;
      break;
    }
  }
  return { from, to };
};

const distance = (word: RegExpMatchArray, start: number, end: number): number => {
  const at = word.index ?? 0;
  return at < start ? start - (at + word[0].length) : at - end;
};

const nearest = (pattern: RegExp, text: string, start: number, end: number): number => {
  let best = Number.POSITIVE_INFINITY;
  for (const word of text.matchAll(pattern)) best = Math.min(best, distance(word, start, end));
  return best;
};

/**
 * The direction the claim states for the figure at `[start, end)` of `claimText`: the direction words of its
 * statement, the nearest one when both occur ("revenue rose 5% and costs fell 3%"). Undefined when the
 * statement names none, names a signed change ("the change was"), or when the figure is a level ("rose to
 * $5 million").
 */
export const statedDirection = (claimText: string, start: number, end: number): Direction | undefined => {
  if (writtenAsLevel(claimText, start)) return undefined;
  const { from, to } = statementAround(claimText, start, end);
  // Neutral wording is blanked, not cut: positions keep their meaning.
  const statement = claimText.slice(from, to).replace(eitherSign, (words) => " ".repeat(words.length));
  if (signedChange.test(statement)) return undefined;
  const up = nearest(upWords, statement, start - from, end - from);
  const down = nearest(downWords, statement, start - from, end - from);
  if (up === down) return undefined;
  return up < down ? "up" : "down";
};

/**
 * Whether a text states one direction anywhere ("how much did costs increase by"), not a signed change ("the
 * change in") nor either direction ("increase / (decrease)").
 */
/** The direction words as tests of a whole text, made once (a new expression each call compiled or looked one up). */
const anyUpWord = new RegExp(upWords.source, "i");
const anyDownWord = new RegExp(downWords.source, "i");

export const statesOneDirection = (text: string): boolean => {
  const wording = text.replace(eitherSign, " ");
  if (signedChange.test(wording)) return false;
  return anyUpWord.test(wording) || anyDownWord.test(wording);
};

/** A change between two figures: a difference or a percent change. */
const isChange = (found: Found): boolean =>
  found.b !== undefined && (found.kind === "difference" || found.kind === "percent-change");

/**
 * Whether a derivation contradicts the stated direction of a figure written as a positive magnitude: a change
 * between two periods (a difference or a percent change, later period first) whose sign is not the one the
 * claim states. "Revenue fell 19.05%" is contradicted by (5.0 - 4.2) / 4.2 * 100 when 5.0 is the later figure.
 * A change whose periods are unknown or the same, a percent change of a negative base (whose sign is the
 * opposite of its direction) or a change between two negatives (a loss that "fell" rose as a signed figure)
 * contradicts nothing.
 */
const contradictsDirection = (found: Found, direction: Direction | undefined): boolean => {
  if (direction === undefined || found.b === undefined || found.value === 0 || !isChange(found)) return false;
  if (found.kind === "percent-change" && found.b.value <= 0) return false;
  // Between two negatives ("(400)" to "(250)") the words may describe the magnitude: the loss "fell by 150".
  if (found.a.value < 0 && found.b.value < 0) return false;
  if ((periodComparison(found.a, found.b) ?? 0) <= 0) return false;
  return (found.value > 0 ? "up" : "down") !== direction;
};

/** A change the stated direction rules out, found for a target in `scale` (the claim's, or 1 for as written). */
interface Contradiction {
  readonly found: Found;
  readonly scale: number;
}

/**
 * The changes a figure's stated direction rules out, remembered while its derivations are searched. Only a
 * figure written as a positive magnitude takes its sign from the wording: "fell by -5" is a signed change.
 */
export const directionGuard = (direction: Direction | undefined, written: number, topic: TopicScore) => {
  const contradictions: Contradiction[] = [];
  const strongest = (): Contradiction | undefined => {
    let best: Contradiction | undefined;
    for (const c of contradictions) if (!best || topic(c.found) > topic(best.found)) best = c;
    return best;
  };
  return {
    /** A filter for the derivations of a target in `scale`: false (and remembered) for a contradicting change. */
    accept:
      (scale: number) =>
      (found: Found): boolean => {
        if (written <= 0 || !contradictsDirection(found, direction)) return true;
        if (contradictions.length < 8) contradictions.push({ found, scale });
        return false;
      },
    strongest,
    /**
     * Whether a contradicting change is a better reading than `found`. A claim that states a direction states a
     * change: a change of the stated sign explains the figure unless the contradicting one is more about the
     * claim; any other derivation (a ratio, a sum) only if it is more about the claim.
     */
    outweighs: (found: Found): boolean => {
      const against = strongest();
      if (!against) return false;
      const margin = topic(against.found) - topic(found);
      return isChange(found) ? margin > 0 : margin >= 0;
    },
  };
};
