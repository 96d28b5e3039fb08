/**
 * The bag-of-words baseline the answer score is measured against: for each sentence of the answer, the share
 * of its content words (lower-cased letters and digits, common function words left out) found in the source
 * sentence that holds most of them; the answer's support is the mean over its sentences, and its hallucination
 * score 1 minus that. Deliberately plain: no stemming, no weighting, no alignment beyond one sentence.
 */
const stopwords = new Set(
  "a an the and or but if of to in on at by for with from as is are was were be been being it its this that these those he she they we you i me my your our their his her them us not no do does did have has had will would can could should may might must shall there here what which who whom whose when where why how all any some each every more most other such only own same so than too very just also into over under about after before between through during out up down off again further then once s t".split(
    " ",
  ),
);

const words = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => !stopwords.has(word)));
const sentences = (text: string): string[] =>
  text.split(/(?<=[.!?])\s+|\n+/).filter((sentence) => sentence.trim().length > 0);

export const bagOfWordsScore = (answer: string, source: string): number => {
  const sourceSentences = sentences(source).map(words);
  const shares: number[] = [];
  for (const sentence of sentences(answer)) {
    const own = words(sentence);
    if (own.size === 0) continue;
    let best = 0;
    for (const candidate of sourceSentences) {
      let found = 0;
      for (const word of own) if (candidate.has(word)) found++;
      best = Math.max(best, found / own.size);
    }
    shares.push(best);
  }
  if (shares.length === 0) return 0;
  return 1 - shares.reduce((sum, share) => sum + share, 0) / shares.length;
};
