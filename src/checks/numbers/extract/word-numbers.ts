import { tensWords as tens, unitWords as units } from "../../../text/number-words.js";

/**
 * Small numbers written as words, from "two" to "ninety-nine". "one" and "zero" are left out: "one of",
 * "no one" and "zero-coupon" are rarely quantities.
 */
export const wordNumberPattern =
  /\b(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](two|three|four|five|six|seven|eight|nine|one))?|(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen))\b/gi;

/** The value of a match of `wordNumberPattern`. */
export const wordNumberValue = (
  tensWord: string | undefined,
  unitWord: string | undefined,
  single: string | undefined,
) => {
  if (single) return units[single.toLowerCase()] ?? 0;
  const unit = unitWord ? (unitWord.toLowerCase() === "one" ? 1 : (units[unitWord.toLowerCase()] ?? 0)) : 0;
  return (tens[(tensWord ?? "").toLowerCase()] ?? 0) + unit;
};
