import type { ExtractedNumber } from "../extract/types.js";

const yearPattern = /(?<![\d,.$])(?:19|20)\d{2}(?![\d,.]\d|%)/g;
const sentenceEnd = /[.;](?:\s+|$)/g;

/**
 * The years of the figures of "respectively" sentences: "During fiscal 2017, 2018 and 2019 sales were $204,310,
 * $187,552 and $12,907, respectively" gives the first figure 2017, the second 2018, the third 2019. With k
 * years and a multiple of k figures, the figures go by k in the order of the years ("sales were $5 and $4, and
 * profit $2 and $1, for 2019 and 2018 respectively"); any other count gives no year. `figures` are the
 * quantities of `line`, in order, with offsets into it. Returns a year per figure (undefined when none).
 */
export const respectivelyYears = (
  line: string,
  figures: readonly ExtractedNumber[],
): (number | undefined)[] => {
  const years: (number | undefined)[] = figures.map(() => undefined);
  let start = 0;
  for (const end of [...line.matchAll(sentenceEnd)].map((m) => m.index + m[0].length).concat(line.length)) {
    if (end <= start) continue;
    const sentence = line.slice(start, end);
    if (/\brespectively\b/i.test(sentence)) {
      const inSentence = figures
        .map((figure, index) => ({ figure, index }))
        .filter(({ figure }) => figure.span.start >= start && figure.span.end <= end);
      const taken = (at: number) =>
        inSentence.some(({ figure }) => figure.span.start <= at && at < figure.span.end);
      const listed = [...sentence.matchAll(yearPattern)]
        .filter((match) => !taken(start + match.index))
        .map((match) => Number(match[0]));
      const k = new Set(listed).size === listed.length ? listed.length : 0;
      if (k >= 2 && inSentence.length > 0 && inSentence.length % k === 0)
        inSentence.forEach(({ index }, i) => {
          years[index] = listed[i % k];
        });
    }
    start = end;
  }
  return years;
};
