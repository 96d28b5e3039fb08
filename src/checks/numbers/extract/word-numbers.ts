const units: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const tens: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

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
