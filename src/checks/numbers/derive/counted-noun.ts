/** Words after a figure that are not what it counts: scale words, units of time, joining words. */
const notNouns = new Set(
  "and or but the of in on at for to from by with as was were is are per than million billion thousand trillion percent year years month months days".split(
    " ",
  ),
);

const nounAfter = /^[ \u00a0]+(\p{L}[\p{L}-]{2,})/u;

/**
 * The noun a figure of prose counts: the word right after it ("we granted 320,000 PSUs" -> "psus", "840
 * employees" -> "employees"), or undefined. `lineText` is lower-cased; `end` is where the figure ends in it.
 */
export const countedNoun = (lineText: string, end: number): string | undefined => {
  const word = nounAfter.exec(lineText.slice(end, end + 40))?.[1];
  return word === undefined || notNouns.has(word) ? undefined : word;
};
