import { mulberry32 } from "../../model/mulberry32.js";

/** A made-up answer and the sources it is checked against. */
export interface MadeUpPayload {
  readonly text: string;
  readonly sources: string[];
}

/**
 * Words of reports and news, with their inflections: the stemmer's suffix rules, stopwords, negations and the
 * numbers layer's operation and scale words all come up. Nothing here is read from a user's data.
 */
const nouns = (
  "revenue sales company market growth report quarter customers employees costs income expenses council " +
  "hospital station river bridge election players season contract products shares dividend margin " +
  "region division tax assets liabilities patients teachers schools officers residents storm airport " +
  "museum festival court"
).split(" ");
const verbs = (
  "increased decreased reported announced opened closed rose fell reached recorded approved rejected " +
  "confirmed denied acquired sold built launched expanded reduced"
).split(" ");
const adjectives = (
  "annual operating regional national former largest smallest quarterly net total successful unexpected " +
  "significant modest rapid gradual local federal senior public"
).split(" ");
const names = (
  "Harlow Bexley Marston Quill Ravenna Ostrava Tamsin Delacroix Whitby Kendal Novak Arden Castell " +
  "Penrith Ilford Varga Oduya Lindqvist Moreau Sato"
).split(" ");
const hedges = ["may have", "reportedly", "it is likely that", "possibly", "according to some estimates,"];
const years = [2015, 2016, 2017, 2018, 2019, 2020, 2021];

type Random = () => number;

const pick = <A>(random: Random, list: readonly A[]): A => list[Math.floor(random() * list.length)] as A;

const capitalized = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * "1,452.4": US grouping, at least one decimal. One formatter for every figure, where `toLocaleString` with
 * options built a formatter per call (2.6 ms per made-up payload, as long as verifying it).
 */
const grouped = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1 });

/** A figure as reports write it: "1,452.4", "$3.2 million", "12.5%", "seven". */
const figure = (random: Random): string => {
  const value = Math.round(random() * 5_000 * 10) / 10;
  switch (Math.floor(random() * 5)) {
    case 0:
      return grouped.format(value);
    case 1:
      return `$${(value / 100).toFixed(1)} million`;
    case 2:
      return `${(value / 100).toFixed(1)}%`;
    case 3:
      return pick(random, ["three", "seven", "twelve", "forty-two", "nineteen"]);
    default:
      return String(Math.round(value));
  }
};

/** One sentence of a made-up report, holding a figure most of the time. */
const sentence = (random: Random): string => {
  const subject = `The ${pick(random, adjectives)} ${pick(random, nouns)} of ${pick(random, names)}`;
  const tail =
    random() < 0.45
      ? ` by ${figure(random)} in ${pick(random, years)}`
      : ` the ${pick(random, nouns)} after the ${pick(random, adjectives)} ${pick(random, nouns)}`;
  const negation = random() < 0.1 ? " did not say it" : "";
  return `${subject} ${pick(random, verbs)}${tail}${negation}.`;
};

/**
 * A table in the layout the TAT-QA records of the labelled sets print theirs (a "Table:" line, cells between
 * pipes, a header of years, rows of figures, a total row, then "Paragraphs:"): the only table layout made here.
 */
const table = (random: Random): string => {
  const columns = [2019, 2018, 2017];
  const rows = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
    label: capitalized(`${pick(random, adjectives)} ${pick(random, nouns)}`),
    values: columns.map(() => Math.round(random() * 20_000) / 10),
  }));
  const totals = columns.map((_, at) => rows.reduce((sum, row) => sum + (row.values[at] as number), 0));
  const cell = (value: number) => `$ ${grouped.format(value)}`;
  return [
    "Table:",
    ` |  | Years Ended December 31, | `,
    ` | ${columns.join(" | ")}`,
    ...rows.map((row) => `${row.label} | ${row.values.map(cell).join(" | ")}`),
    `Total | ${totals.map(cell).join(" | ")}`,
    "",
    "Paragraphs:",
    Array.from({ length: 3 }, () => sentence(random)).join(" "),
  ].join("\n");
};

/** The sentences of a paragraph of made-up prose, a few of them. */
const paragraph = (random: Random): string[] =>
  Array.from({ length: 3 + Math.floor(random() * 5) }, () => sentence(random));

/**
 * The answer's sentences: taken from the sources' prose as they are, with a figure changed, with a word changed,
 * or with a hedge, or a sum written out; so each check meets what it judges.
 */
const answerSentence = (random: Random, sourceSentences: readonly string[]): string => {
  const taken = pick(random, sourceSentences);
  switch (Math.floor(random() * 6)) {
    case 0:
      return taken.replace(/\d/, (digit) => String((Number(digit) + 1) % 10));
    case 1:
      return taken.replace(/\b(increased|rose|opened|approved)\b/, "decreased");
    case 2:
      return `${capitalized(pick(random, hedges))} ${taken.charAt(0).toLowerCase()}${taken.slice(1)}`;
    case 3: {
      const a = Math.round(random() * 1_000);
      const b = Math.round(random() * 1_000);
      return `Together that is ${a} + ${b} = ${a + b} ${pick(random, nouns)}.`;
    }
    default:
      return taken;
  }
};

/**
 * Made-up answers against made-up sources, each about `answerChars` of answer against `sourceChars` of sources,
 * prose and tables mixed, the same list for the same seed. They exercise every offline layer's code on text no
 * user sent, so a new process can compile that code before it serves anyone.
 */
export const madeUpPayloads = (
  count: number,
  seed = 1,
  answerChars = 1_000,
  sourceChars = 10_000,
): MadeUpPayload[] => {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const sources: string[] = [];
    // The sentences of the prose, tables left out: what an answer would take from its sources.
    const sourceSentences: string[] = [];
    let size = 0;
    while (size < sourceChars) {
      let source: string;
      if (random() < 0.25) source = table(random);
      else {
        const sentences = paragraph(random);
        sourceSentences.push(...sentences);
        source = sentences.join(" ");
      }
      sources.push(source);
      size += source.length;
    }
    if (sourceSentences.length === 0) {
      const sentences = paragraph(random);
      sourceSentences.push(...sentences);
      sources.push(sentences.join(" "));
    }
    let text = "";
    while (text.length < answerChars) text += `${answerSentence(random, sourceSentences)} `;
    return { text: text.trim(), sources };
  });
};
