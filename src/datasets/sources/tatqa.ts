import type { EvalRecord } from "../../eval/record.js";
import type { Conversion, DatasetSpec, UpstreamTexts } from "../spec.js";
import { parseJsonText, recordLine, Skips } from "./convert-helpers.js";

const file = "dataset_raw/tatqa_dataset_dev.json";

interface TatQaQuestion {
  readonly uid: string;
  readonly question: string;
  readonly answer: unknown;
  readonly derivation?: string;
  readonly answer_type?: string;
  readonly answer_from?: string;
  readonly rel_paragraphs?: readonly string[];
  readonly req_comparison?: boolean;
  readonly scale?: string;
}

interface TatQaDocument {
  readonly table?: { readonly uid?: string; readonly table?: readonly (readonly string[])[] };
  readonly paragraphs?: readonly { readonly order?: number; readonly text?: string }[];
  readonly questions?: readonly TatQaQuestion[];
}

/** The table as pipe-separated rows, then the paragraphs in their order: the evidence of every question. */
const contextOf = (document: TatQaDocument): string => {
  const rows = (document.table?.table ?? []).map((row) => row.join(" | ")).join("\n");
  const paragraphs = [...(document.paragraphs ?? [])]
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((paragraph) => paragraph.text ?? "")
    .join("\n\n");
  return `Table:\n${rows}\n\nParagraphs:\n${paragraphs}`;
};

/** The gold answer as a sentence fragment: spans joined by "; ", the scale appended ("%" for percent). */
const responseOf = (question: TatQaQuestion): string | undefined => {
  const answer = question.answer;
  const text = Array.isArray(answer)
    ? answer.map(String).join("; ")
    : typeof answer === "number" || typeof answer === "string"
      ? String(answer)
      : undefined;
  if (text === undefined || text.trim() === "") return undefined;
  const scale = question.scale ?? "";
  return scale === "" ? text : scale === "percent" ? `${text}%` : `${text} ${scale}`;
};

/**
 * TAT-QA (dev): documents of one financial table and its paragraphs, each with questions whose gold answer
 * is a span, several spans, a count or an arithmetic result with its derivation and scale. Only gold
 * answers exist, so every record is `supported`; tests build wrong answers from them.
 */
export const convertTatQa = (texts: UpstreamTexts): Conversion => {
  const documents = parseJsonText(texts, file);
  if (!Array.isArray(documents)) throw new Error(`${file} is not a JSON array`);
  const lines: string[] = [];
  const skips = new Skips();
  for (const document of documents as TatQaDocument[]) {
    const context = contextOf(document);
    for (const question of document.questions ?? []) {
      const response = responseOf(question);
      if (
        typeof question.uid !== "string" ||
        typeof question.question !== "string" ||
        response === undefined
      ) {
        skips.add("question without uid, text or answer");
        continue;
      }
      const record: EvalRecord = {
        id: `tatqa:${question.uid}`,
        dataset: "tatqa",
        task: "numeric_qa",
        context,
        question: question.question,
        response,
        label: "supported",
        spans: [],
        meta: {
          split: "dev",
          table_uid: document.table?.uid ?? null,
          answer: question.answer,
          scale: question.scale ?? "",
          derivation: question.derivation ?? "",
          answer_type: question.answer_type ?? null,
          answer_from: question.answer_from ?? null,
          rel_paragraphs: question.rel_paragraphs ?? [],
          req_comparison: question.req_comparison ?? false,
          note: "gold answer only; TAT-QA ships no hallucinated answers",
        },
      };
      lines.push(recordLine(record));
    }
  }
  return { files: [{ name: "tatqa.jsonl", lines }], skipped: skips.counts() };
};

export const tatQa: DatasetSpec = {
  name: "tatqa",
  title: "TAT-QA (Zhu et al., 2021)",
  description:
    "financial tables and text with gold answers (718 arithmetic with their derivation); all supported",
  repository: "NExTplusplus/TAT-QA",
  commit: "870accc41953dcde885aabeb963d94aabdc0fbc3",
  files: [{ path: file, sha256: null }],
  licence: "CC-BY-4.0",
  attribution:
    "TAT-QA by Fengbin Zhu, Wenqiang Lei, Youcheng Huang, Chao Wang, Shuo Zhang, Jiancheng Lv, Fuli Feng and " +
    'Tat-Seng Chua, "TAT-QA: A Question Answering Benchmark on a Hybrid of Tabular and Textual Content in ' +
    'Finance", ACL 2021; https://github.com/NExTplusplus/TAT-QA, CC BY 4.0. Converted (answers rendered as text ' +
    "with their scale) by Veracity.",
  licenceFiles: ["tatqa-LICENSE"],
  evalFile: "tatqa.jsonl",
  converterVersion: 1,
  convert: convertTatQa,
};
