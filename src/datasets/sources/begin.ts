import type { EvalRecord, RecordLabel } from "../../eval/record.js";
import type { Conversion, DatasetSpec, UpstreamTexts } from "../spec.js";
import { linesOf, recordLine, Skips, textOf } from "./convert-helpers.js";

const files = ["cmu-dog/begin_dev_cmu.tsv", "topicalchat/begin_dev_tc.tsv", "wow/begin_dev_wow.tsv"] as const;

const labels: Readonly<Record<string, RecordLabel>> = {
  "Fully attributable": "supported",
  "Not fully attributable": "hallucinated",
};

const required = ["model_name", "data_source", "knowledge", "message", "response", "begin_label"] as const;

/**
 * BEGIN: tab-separated files with the header `model_name data_source knowledge message response begin_label`.
 * A response is supported when annotators found it "Fully attributable" to the knowledge snippet and
 * hallucinated when "Not fully attributable"; "Generic" responses (no claim to attribute) are left out.
 * The record id keeps the row's position in its file.
 */
export const convertBegin = (texts: UpstreamTexts): Conversion => {
  const lines: string[] = [];
  const skips = new Skips();
  for (const path of files) {
    const [header, ...rows] = linesOf(textOf(texts, path));
    const columns = (header ?? "").split("\t");
    const index = Object.fromEntries(required.map((name) => [name, columns.indexOf(name)]));
    const missing = required.filter((name) => index[name] === -1);
    if (missing.length > 0) throw new Error(`${path} has no column ${missing.join(", ")}`);
    const stem = path.replace(/^.*\//, "").replace(/\.tsv$/, "");
    rows.forEach((row, position) => {
      const fields = row.split("\t");
      const field = (name: (typeof required)[number]) => fields[index[name] ?? -1] ?? "";
      const label = labels[field("begin_label")];
      if (label === undefined) {
        skips.add(`label "${field("begin_label")}"`);
        return;
      }
      const record: EvalRecord = {
        id: `begin:${stem}:${position}`,
        dataset: "begin",
        task: "dialogue",
        context: field("knowledge"),
        question: field("message"),
        response: field("response"),
        label,
        spans: [],
        meta: {
          split: "dev",
          model_name: field("model_name"),
          data_source: field("data_source"),
          original_label: field("begin_label"),
        },
      };
      lines.push(recordLine(record));
    });
  }
  return { files: [{ name: "begin.jsonl", lines }], skipped: skips.counts() };
};

export const begin: DatasetSpec = {
  name: "begin",
  title: "BEGIN (Dziri et al., 2022)",
  description:
    "knowledge-grounded dialogue responses judged fully attributable to their knowledge or not (dev sets)",
  repository: "google/BEGIN-dataset",
  commit: "6e65f0d5a1ed1b9574643a7640ff1678d4e979b5",
  files: files.map((path) => ({ path, sha256: null })),
  licence: "CC-BY-4.0 (CMU-DoG and Wizard of Wikipedia parts), CDLA-Sharing-1.0 (Topical-Chat part)",
  attribution:
    'BEGIN by Nouha Dziri, Hannah Rashkin, Tal Linzen and David Reitter, "Evaluating Attribution in Dialogue ' +
    'Systems: The BEGIN Benchmark", TACL 2022; https://github.com/google/BEGIN-dataset. The knowledge and ' +
    "dialogue turns come from CMU-DoG and Wizard of Wikipedia (CC BY 4.0) and Topical-Chat (CDLA-Sharing-1.0), " +
    "each part under the licence of its folder in that repository (copied beside the data).",
  licenceFiles: ["begin-LICENSE", "begin-cmu-dog-LICENSE", "begin-topicalchat-LICENSE", "begin-wow-LICENSE"],
  evalFile: "begin.jsonl",
  converterVersion: 1,
  convert: convertBegin,
};
