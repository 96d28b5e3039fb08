import { mulberry32 } from "../../src/model/mulberry32.js";

/**
 * Synthetic memories for the memory benches: a seeded generator (mulberry32), so every run and every store sees
 * the same texts, over a 30,000-word vocabulary with skewed word choice (a few common words, most rare, as in
 * prose), and near-duplicates made by one small edit.
 */

export { mulberry32 };

const syllables = "ka lo mi ne su ta ri po de va lu xe zo fi gra ten mor bel sin qua dro pel vin sho".split(
  " ",
);

/** The generator's pieces, all drawing from one seeded sequence (the vocabulary is drawn first). */
export const syntheticMemories = (seed = 0x5eed1234) => {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const vocabulary = Array.from({ length: 30_000 }, (_, i) => {
    let word = "";
    for (let n = 2 + (i % 3); n > 0; n--) word += pick(syllables);
    return `${word}${i % 7 === 0 ? i : ""}`;
  });
  const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)] as string;
  const sentence = () => Array.from({ length: 12 + Math.floor(random() * 13) }, word).join(" ");
  /** An exact copy, one word added, or one word replaced (the last falls below 0.92 for short texts). */
  const nearDuplicate = (text: string): string => {
    const words = text.split(" ");
    const edit = random();
    if (edit < 0.3) return text;
    if (edit < 0.65) words.splice(Math.floor(random() * words.length), 0, word());
    else words[Math.floor(random() * words.length)] = word();
    return words.join(" ");
  };
  return { random, pick, word, sentence, nearDuplicate };
};
