import type { EvalRecord } from "../../eval/record.js";
import type { Conversion, DatasetSpec, UpstreamTexts } from "../spec.js";
import { parseJsonText, recordLine, Skips } from "./convert-helpers.js";

const domains = ["news", "ectsum", "samsum", "sales_email", "scitldr", "qmsumm"] as const;
const fileOf = (domain: string) => `data/summedits/summedits_${domain}.json`;

/** Records of one source document in the "evaluation" split: the first ones of each domain; the rest "test". */
const evaluationDocuments = 4;

interface SummEditsRow {
  readonly id: string;
  readonly doc: string;
  readonly summary: string;
  readonly label: unknown;
  readonly edit_types?: readonly string[];
}

/**
 * SummEdits: each upstream file is a JSON array of `{ id, doc, summary, label, original_summary, edit_types }`
 * where label 1 means the (possibly edited) summary is consistent with `doc` and 0 that an edit made it
 * inconsistent. Ids ending in `_og` are the seed summaries. The first four documents of each domain form the
 * `evaluation` split and the others `test`, so a threshold tuned on one never saw the documents of the other.
 */
export const convertSummEdits = (texts: UpstreamTexts): Conversion => {
  const lines: string[] = [];
  const skips = new Skips();
  for (const domain of domains) {
    const rows = parseJsonText(texts, fileOf(domain));
    if (!Array.isArray(rows)) throw new Error(`${fileOf(domain)} is not a JSON array`);
    const documents = new Map<string, number>();
    for (const row of rows as SummEditsRow[]) {
      if (typeof row?.id !== "string" || typeof row.doc !== "string" || typeof row.summary !== "string") {
        skips.add("row without id, doc or summary");
        continue;
      }
      if (row.label !== 0 && row.label !== 1) {
        skips.add("label neither 0 nor 1");
        continue;
      }
      if (!documents.has(row.doc)) documents.set(row.doc, documents.size);
      const record: EvalRecord = {
        id: `summedits:${domain}:${row.id}`,
        dataset: "summedits",
        task: "summarization",
        context: row.doc,
        question: null,
        response: row.summary,
        label: row.label === 1 ? "supported" : "hallucinated",
        spans: [],
        meta: {
          domain,
          split: (documents.get(row.doc) ?? 0) < evaluationDocuments ? "evaluation" : "test",
          edit_types: row.edit_types ?? [],
          is_seed_summary: row.id.endsWith("_og"),
          original_label: row.label,
        },
      };
      lines.push(recordLine(record));
    }
  }
  return { files: [{ name: "summedits.jsonl", lines }], skipped: skips.counts() };
};

export const summEdits: DatasetSpec = {
  name: "summedits",
  title: "SummEdits (Laban et al., 2023)",
  description:
    "summary edits (entity swaps, antonyms, negation, inserted facts) labelled consistent or not; 6 of 10 domains",
  repository: "salesforce/factualNLG",
  commit: "0da1dfa62c783218d26208c1796d3a2605bec745",
  files: domains.map((domain) => ({ path: fileOf(domain), sha256: null })),
  licence: "Apache-2.0",
  attribution:
    "SummEdits by Philippe Laban, Wojciech Kryściński, Divyansh Agarwal, Alexander R. Fabbri, Caiming Xiong, " +
    'Shafiq Joty and Chien-Sheng Wu (Salesforce Research), "LLMs as Factual Reasoners: Insights from Existing ' +
    'Benchmarks and Beyond", 2023; https://github.com/salesforce/factualNLG, Apache License 2.0.',
  licenceFiles: ["summedits-LICENSE.txt"],
  evalFile: "summedits.jsonl",
  converterVersion: 1,
  convert: convertSummEdits,
};
