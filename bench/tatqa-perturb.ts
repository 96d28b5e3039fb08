/**
 * Builds a numeric-grounding benchmark from TAT-QA gold answers (NExTplusplus/TAT-QA, dev split, CC BY 4.0):
 * each arithmetic gold answer is kept ("supported") and hallucinated variants of it are written next to it
 * ("hallucinated", `meta.perturbation` names the kind). Every record's `dataset` is
 * `tatqa-numbers:<half>:<kind>` (kind `gold` for the gold answers), so that `veracity eval` reports recall per
 * perturbation kind and per half: `develop` and `holdout` split the tables by a hash of their id, so a rule
 * developed on one half can be reported on the other.
 *
 *   node --import tsx bench/tatqa-perturb.ts [out.jsonl] [--seed N] [--form answer|sentence] [--half develop|holdout]
 *   node dist/cli/main.js eval --data out.jsonl --layers numbers --json
 *
 * `--form answer` (the default) keeps the answer as TAT-QA writes it ("-12.6 million"), the form of the shared
 * tatqa.jsonl; `--form sentence` restates the question around it ("The change in Other ... was -12.6 million.").
 * `--seed` changes which variant each record gets (the close-but-wrong shift, the digits swapped); the same
 * seed writes the same file.
 *
 * The recipe is documented in docs/bench/numbers.md.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { declaredScales } from "../src/checks/numbers/extract/scale-words.js";
import { benchmarkFile } from "../src/datasets/benchmark-data.js";

export interface CommonRecord {
  readonly id: string;
  readonly dataset: string;
  readonly task: string;
  readonly context: string | null;
  readonly question: string | null;
  readonly response: string;
  readonly label: "supported" | "hallucinated";
  readonly spans: readonly { start: number; end: number; text: string }[];
  readonly meta: Record<string, unknown>;
}

export const perturbationKinds = [
  "close-but-wrong",
  "wrong-base",
  "sign-flip",
  "scale-x1000",
  "digit-transposition",
  "partial-sum",
] as const;
export type PerturbationKind = (typeof perturbationKinds)[number];

/** The TAT-QA file: VERACITY_DATASETS_DIR/tatqa.jsonl, else the fetched `tatqa` dataset; undefined when absent. */
export const tatqaFile = (): string | undefined => benchmarkFile(process.env, "tatqa.jsonl");

/** The TAT-QA records with an arithmetic gold answer and its derivation. */
export const loadArithmeticRecords = (file = tatqaFile() ?? "tatqa.jsonl"): CommonRecord[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as CommonRecord)
    .filter(
      (record) => record.meta.answer_type === "arithmetic" && typeof record.meta.derivation === "string",
    );

let seedText = "";
/** Sets the seed every perturbation draws from (the empty seed is the one the figures were measured with). */
export const setSeed = (seed: string): void => {
  seedText = seed.length > 0 ? `${seed}:` : "";
};

/** A stable pseudo-random number in [0, 1) from a string and the seed: perturbations are reproducible. */
const unitHash = (input: string): number => {
  const text = seedText + input;
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0) / 2 ** 32;
};

const scaleWords = ["thousand", "million", "billion", "trillion"] as const;

interface Answer {
  readonly value: number;
  readonly decimals: number;
  readonly scale: string;
  readonly percent: boolean;
}

/** The gold answer as TAT-QA writes it ("-12.6 million", "-22.22%", "2.65"). */
const parseAnswer = (record: CommonRecord): Answer | undefined => {
  const match = /^(-?\d+(?:\.(\d+))?)(%| thousand| million| billion)?$/.exec(record.response.trim());
  if (!match?.[1]) return undefined;
  return {
    value: Number(match[1]),
    decimals: match[2]?.length ?? 0,
    scale: match[3] && match[3] !== "%" ? match[3].trim() : "",
    percent: match[3] === "%",
  };
};

const format = (answer: Answer): string => {
  const number = answer.value.toFixed(answer.decimals);
  return answer.percent ? `${number}%` : answer.scale ? `${number} ${answer.scale}` : number;
};

/** Gold derivation "(a - b) / b" (optionally "* 100"): the operands of a percent change. */
const percentChangeOperands = (derivation: string): [number, number] | undefined => {
  const clean = derivation.replace(/[$,\s%]/g, "");
  const match = /^\(?(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)\)?\/(-?\d+(?:\.\d+)?)(?:\*100)?$/.exec(clean);
  if (!match || match[2] !== match[3]) return undefined;
  return [Number(match[1]), Number(match[2])];
};

/** The years a question names, in order ("2018", "FY19", "F18"). */
const yearsNamed = (question: string): number[] =>
  [...question.matchAll(/(?<![\d,.])((?:19|20)\d{2})(?![\d,.])|\bFY?\s?'?(\d{2})\b/gi)].map((match) =>
    match[1] ? Number(match[1]) : 2000 + Number(match[2]),
  );

/**
 * "The difference between 2018 and 2019 was X", without a direction ("change", "increase", "from ... to"), has
 * two faithful readings that disagree on the sign: A - B in the order named (2018 - 2019) and later minus
 * earlier (2019 - 2018). Its negation is then the other reading, not an error the evidence can show. With the
 * later period named first, or no periods, both readings agree and the sign counts.
 */
const unsignedWording = (question: string): boolean => {
  if (!/\b(?:difference|differ|gap)\b/i.test(question)) return false;
  if (
    /\b(?:change[ds]?|increase[ds]?|decrease[ds]?|growth|grew|rose|fell|declined?|more|less)\b|\bfrom\b.+\bto\b/i.test(
      question,
    )
  )
    return false;
  const [first, second] = yearsNamed(question);
  return first !== undefined && second !== undefined && first < second;
};

/** The figures of a gold derivation as written ("1,172", "(709)"), without signs or parentheses. */
const derivationFigures = (derivation: string): string[] =>
  derivation.match(/\d[\d,]*(?:\.\d+)?/g)?.filter((figure) => !/^[0-9]$/.test(figure)) ?? [];

/**
 * A sum or average of figures the context prints only as accounting negatives ("(709)"): the answer may state
 * the outflow (709) or the signed value (-709); both are faithful to the source, so a sign flip is no error.
 */
const outflowMagnitude = (record: CommonRecord): boolean => {
  const derivation = String(record.meta.derivation);
  // A subtraction between figures makes the sign a matter of fact, not of convention.
  if (/[\d)\]]\s*-/.test(derivation)) return false;
  const figures = derivationFigures(derivation);
  const context = record.context ?? "";
  const escaped = (figure: string) => figure.replace(/[.]/g, "\\.");
  return (
    figures.length > 0 &&
    figures.every((figure) => {
      const negative = new RegExp(`\\(\\s*\\$?\\s*${escaped(figure)}\\s*\\)`, "g");
      const standalone = new RegExp(`(?<![\\d,.])${escaped(figure)}(?![\\d,]|\\.\\d)`);
      return negative.test(context) && !standalone.test(context.replace(negative, " "));
    })
  );
};

/**
 * The sentence a model would write: the question restated as the subject, then the answer.
 * "What is the change in Other in 2019 from 2018?" becomes "The change in Other in 2019 from 2018 was
 * -12.6 million."; a question of another shape is kept as a lead-in ("How ...: the answer is X.").
 */
export const answerSentence = (record: CommonRecord, answerText: string, forceTotal = false): string => {
  if (forceTotal) return `The total was ${answerText}.`;
  const question = (record.question ?? "").trim().replace(/\?+$/, "");
  const restated = /^(?:what|how much|how many)\s+(?:is|was|are|were)\s+(?:the\s+)?(.+)$/i.exec(question);
  if (restated?.[1]) return `The ${restated[1]} was ${answerText}.`;
  return question.length > 0 ? `${question}: the answer is ${answerText}.` : `The answer is ${answerText}.`;
};

/** The hallucinated variants of one gold answer, each with the kind of error it carries. */
export const perturb = (
  record: CommonRecord,
): { kind: PerturbationKind; answer: string; sentence: string }[] => {
  const gold = parseAnswer(record);
  if (!gold) return [];
  const variants: { kind: PerturbationKind; answer: string; sentence: string }[] = [];
  const add = (kind: PerturbationKind, answer: Answer, forceTotal = false) => {
    const text = format(answer);
    // "0.00%" for a gold "0%" is the same statement written with more decimals, not an error.
    if (answer.value === gold.value && answer.scale === gold.scale && answer.percent === gold.percent) return;
    variants.push({ kind, answer: text, sentence: answerSentence(record, text, forceTotal) });
  };
  // 1. Close but wrong: off by 1.5% to 4% of the value (the field case 10.96 vs 11.11 is 1.4%), at least
  //    three units of the last written digit away, written with the gold answer's precision (or one more).
  const shift =
    (0.015 + 0.025 * unitHash(`${record.id}:close`)) * (unitHash(`${record.id}:dir`) < 0.5 ? -1 : 1);
  let decimals = gold.decimals;
  while (decimals < 4 && Math.abs(gold.value * shift) < 3 * 10 ** -decimals) decimals += 1;
  if (gold.value !== 0)
    add("close-but-wrong", {
      ...gold,
      value: Number((gold.value * (1 + shift)).toFixed(decimals)),
      decimals,
    });
  // 2. Percent change on the wrong base: (new - old) / new instead of (new - old) / old.
  const operands = percentChangeOperands(String(record.meta.derivation));
  if (operands && gold.percent && operands[0] !== 0) {
    const [newer, older] = operands;
    add("wrong-base", { ...gold, value: Number((((newer - older) / newer) * 100).toFixed(2)), decimals: 2 });
  }
  // 3. Sign flip, where the sign is a matter of fact: not for a distance ("the difference between A and B")
  //    nor for a sum or average of outflows the source prints as "(709)".
  const signOpen = unsignedWording(record.question ?? "") || outflowMagnitude(record);
  if (gold.value !== 0 && !signOpen) add("sign-flip", { ...gold, value: -gold.value });
  // 4. Scale error x1000: the next scale word up when the context states the scale of its figures ("in
  //    thousands", "$'000"), otherwise the figure times 1000 (a scale word the evidence never states cannot be
  //    checked against it: "64,509" read as thousands or as millions is the same bare figure).
  const scaleIndex = scaleWords.indexOf(gold.scale as (typeof scaleWords)[number]);
  const scaleStated = declaredScales(record.context ?? "").length > 0;
  // Zero is zero in any scale: "0 million" states what "0 thousand" does, so zero gets no scale variant.
  if (gold.value !== 0) {
    const next = scaleWords[scaleIndex + 1] ?? "trillion";
    add(
      "scale-x1000",
      scaleIndex >= 0 && scaleStated ? { ...gold, scale: next } : { ...gold, value: gold.value * 1000 },
    );
  }
  // 5. Digit transposition: two adjacent different digits swapped, chosen by hash.
  const digits = Math.abs(gold.value).toFixed(gold.decimals);
  const pairs = [...digits].flatMap((char, i) =>
    i + 1 < digits.length && /\d/.test(char) && /\d/.test(digits[i + 1] ?? "") && char !== digits[i + 1]
      ? [i]
      : [],
  );
  if (pairs.length > 0) {
    const at = pairs[Math.floor(unitHash(`${record.id}:swap`) * pairs.length)] ?? 0;
    const swapped = digits.slice(0, at) + digits[at + 1] + digits[at] + digits.slice(at + 2);
    const value = Number(swapped) * Math.sign(gold.value || 1);
    if (!swapped.startsWith("0") || swapped.startsWith("0.")) add("digit-transposition", { ...gold, value });
  }
  return variants;
};

interface TableColumn {
  readonly items: number[];
  readonly total: number;
  readonly decimals: number;
}

/** Columns of the record's table that end in a "Total" row, with the items above it (3 or more). */
const totalledColumns = (context: string): TableColumn[] => {
  const rows = context.split("\n").filter((line) => line.includes("|"));
  const cellsOf = (line: string) => line.split("|").map((cell) => cell.trim());
  const numeric = (cell: string): number | undefined => {
    const match = /^\$?\s*(\(?)([\d,]+(?:\.\d+)?)\)?$/.exec(cell);
    if (!match?.[2]) return undefined;
    const value = Number(match[2].replace(/,/g, ""));
    return match[1] ? -value : value;
  };
  const columns: TableColumn[] = [];
  let start = 0;
  rows.forEach((line, rowIndex) => {
    const cells = cellsOf(line);
    if (!/^total\b/i.test(cells[0] ?? "")) return;
    for (let column = 1; column < cells.length; column++) {
      const total = numeric(cells[column] ?? "");
      if (total === undefined) continue;
      const items = rows
        .slice(start, rowIndex)
        .map((row) => numeric(cellsOf(row)[column] ?? ""))
        .filter((value): value is number => value !== undefined);
      const decimals = Math.max(0, ...items.map((item) => (String(item).split(".")[1] ?? "").length));
      if (items.length >= 3) columns.push({ items, total, decimals });
    }
    start = rowIndex + 1;
  });
  return columns;
};

/**
 * 6. Partial sum: the sum of the first two items of a totalled table column, presented as the total.
 * One per table (records sharing a table share the variant).
 */
export const partialSum = (
  record: CommonRecord,
): { kind: PerturbationKind; answer: string; sentence: string } | undefined => {
  const column = totalledColumns(record.context ?? "")[0];
  if (!column) return undefined;
  const [first, second] = column.items;
  if (first === undefined || second === undefined) return undefined;
  const sum = Number((first + second).toFixed(column.decimals));
  if (Math.abs(sum - column.total) < 10 ** -column.decimals) return undefined;
  const scale = String(record.meta.scale);
  const answer = `${sum.toFixed(column.decimals)}${["thousand", "million", "billion"].includes(scale) ? ` ${scale}` : ""}`;
  return { kind: "partial-sum", answer, sentence: `The total was ${answer}.` };
};

/** The half a table falls in, by a hash of its id (not of the seed): records of one table stay together. */
export const halfOf = (record: CommonRecord): "develop" | "holdout" => {
  const table = String(record.meta.table_uid ?? record.id);
  let hash = 2166136261;
  for (let i = 0; i < table.length; i++) hash = Math.imul(hash ^ table.charCodeAt(i), 16777619);
  return (hash >>> 0) % 2 === 0 ? "develop" : "holdout";
};

export type Form = "answer" | "sentence";

/**
 * The whole benchmark: every gold answer (supported) and its variants (hallucinated). In the answer form a
 * variant is the answer alone, as the gold one; a partial sum is always the sentence "The total was X.", since
 * it answers the question of the total rather than the record's.
 */
export const buildBenchmark = (records: readonly CommonRecord[], form: Form = "sentence"): CommonRecord[] => {
  const out: CommonRecord[] = [];
  const tablesSeen = new Set<unknown>();
  for (const record of records) {
    const gold = parseAnswer(record);
    if (!gold) continue;
    const half = halfOf(record);
    const base = {
      task: "numeric_qa",
      context: record.context,
      question: record.question,
    };
    const sentence = form === "answer" ? record.response : answerSentence(record, format(gold));
    out.push({
      ...base,
      dataset: `tatqa-numbers:${half}:gold`,
      id: `${record.id}:gold`,
      response: sentence,
      label: "supported",
      spans: [],
      meta: { ...record.meta, source: record.id, half },
    });
    const variants = perturb(record);
    if (!tablesSeen.has(record.meta.table_uid)) {
      tablesSeen.add(record.meta.table_uid);
      const partial = partialSum(record);
      if (partial) variants.push(partial);
    }
    for (const variant of variants) {
      const response =
        form === "answer" && variant.kind !== "partial-sum" ? variant.answer : variant.sentence;
      const start = response.indexOf(variant.answer);
      out.push({
        ...base,
        dataset: `tatqa-numbers:${half}:${variant.kind}`,
        id: `${record.id}:${variant.kind}`,
        response,
        label: "hallucinated",
        spans: [{ start, end: start + variant.answer.length, text: variant.answer }],
        meta: { ...record.meta, source: record.id, perturbation: variant.kind, half },
      });
    }
  }
  return out;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const value = args[at + 1];
    args.splice(at, 2);
    return value;
  };
  setSeed(option("--seed") ?? "");
  const form = option("--form") ?? "answer";
  const half = option("--half");
  if (form !== "answer" && form !== "sentence") throw new Error(`--form answer|sentence, not ${form}`);
  if (half !== undefined && half !== "develop" && half !== "holdout")
    throw new Error(`--half develop|holdout, not ${half}`);
  const target = args[0] ?? path.join(tmpdir(), "veracity-tatqa-numbers.jsonl");
  const records = buildBenchmark(loadArithmeticRecords(), form).filter(
    (record) => half === undefined || record.meta.half === half,
  );
  writeFileSync(target, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
  const counts = new Map<string, number>();
  for (const record of records) {
    const key = String(record.meta.perturbation ?? "gold");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  console.log(`wrote ${records.length} records to ${target}`, Object.fromEntries(counts));
}
