import type { EvalRecord, GoldSpan } from "../../eval/record.js";
import type { Conversion, DatasetSpec, UpstreamTexts } from "../spec.js";
import { linesOf, recordLine, Skips, textOf } from "./convert-helpers.js";

const file = "data/general_data.json";

interface HaluEvalRow {
  readonly ID?: unknown;
  readonly user_query?: unknown;
  readonly chatgpt_response?: unknown;
  readonly hallucination?: unknown;
  readonly hallucination_label?: unknown;
  readonly hallucination_spans?: unknown;
}

/** Each annotated span string located in the response (first occurrence); spans not found are left out. */
const locate = (response: string, spans: readonly unknown[]): GoldSpan[] =>
  spans.flatMap((span) => {
    if (typeof span !== "string" || span.length === 0) return [];
    const start = response.indexOf(span);
    return start < 0 ? [] : [{ start, end: start + span.length, text: span }];
  });

/**
 * HaluEval general: one JSON object per line, `{ ID, user_query, chatgpt_response, hallucination: "yes" |
 * "no", hallucination_spans: [...] }` (older revisions name the label `hallucination_label` and have no spans).
 * There is no source text, so only model-backed layers can judge these records.
 */
export const convertHaluEval = (texts: UpstreamTexts): Conversion => {
  const out: string[] = [];
  const skips = new Skips();
  linesOf(textOf(texts, file)).forEach((line, position) => {
    let row: HaluEvalRow;
    try {
      row = JSON.parse(line) as HaluEvalRow;
    } catch {
      skips.add("line not JSON");
      return;
    }
    const label = row.hallucination ?? row.hallucination_label;
    if (typeof row.user_query !== "string" || typeof row.chatgpt_response !== "string") {
      skips.add("row without user_query or chatgpt_response");
      return;
    }
    if (label !== "yes" && label !== "no") {
      skips.add("label neither yes nor no");
      return;
    }
    const given = Array.isArray(row.hallucination_spans) ? row.hallucination_spans : [];
    const record: EvalRecord = {
      id: `halueval_general:${position}`,
      dataset: "halueval_general",
      task: "general",
      context: null,
      question: row.user_query,
      response: row.chatgpt_response,
      label: label === "yes" ? "hallucinated" : "supported",
      spans: label === "yes" ? locate(row.chatgpt_response, given) : [],
      meta: {
        source_file: file,
        orig_ID: String(row.ID ?? ""),
        original_label: label,
        n_spans_given: given.length,
      },
    };
    out.push(recordLine(record));
  });
  return { files: [{ name: "halueval_general.jsonl", lines: out }], skipped: skips.counts() };
};

export const haluEval: DatasetSpec = {
  name: "halueval",
  title: "HaluEval general (Li et al., 2023)",
  description: "ChatGPT answers to user queries with human hallucination labels and spans; no source text",
  repository: "RUCAIBox/HaluEval",
  commit: "89236d2ed3c2b2e86095571ac6ddde0e963c38c6",
  files: [{ path: file, sha256: null }],
  licence: "MIT",
  attribution:
    'HaluEval by Junyi Li, Xiaoxue Cheng, Wayne Xin Zhao, Jian-Yun Nie and Ji-Rong Wen, "HaluEval: A ' +
    'Large-Scale Hallucination Evaluation Benchmark for Large Language Models", EMNLP 2023; ' +
    "https://github.com/RUCAIBox/HaluEval, MIT licence.",
  licenceFiles: ["halueval-LICENSE"],
  evalFile: "halueval_general.jsonl",
  converterVersion: 1,
  convert: convertHaluEval,
};
