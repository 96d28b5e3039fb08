/**
 * What focusing very large evidence costs in verdicts. For labelled records of the dev sets, each answer is
 * verified three ways: against its own context (the reference), and against a haystack of about 1.2 MB, the
 * contexts of other records of the same set with its own context put at a seeded random place, once with the
 * default settings (the haystack is over `evidenceFocus.above`, so it is focused) and once with focusing off
 * (every passage read). Reported: how often each haystack verdict equals the reference verdict, false alarms
 * (`fail` on correct answers) and recall (`fail` on incorrect ones) for the three, and the median time.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/focus-needle.bench.ts [records per set]
 */
import { createVerifier } from "../src/facade/create-verifier.js";
import { lcg } from "./libraries/seeded.js";
import { median } from "./libraries/statistics.js";
import { readBenchmarkRecords } from "./libraries/texts.js";

const perSet = Number(process.argv[2] ?? 25);
const haystackChars = 1_200_000;

const random = lcg(7);

interface Row {
  readonly set: string;
  readonly correct: boolean;
  readonly verdicts: readonly string[];
  readonly ms: readonly number[];
}

const focused = createVerifier();
const unfocused = createVerifier({
  settings: { evidenceFocus: { above: 1_000_000_000, keep: 100_000, perAnswerCharacter: 20 } },
});
const rows: Row[] = [];
for (const set of ["begin", "summedits", "frank_cnndm", "tatqa"]) {
  const records = (await readBenchmarkRecords(`${set}.jsonl`)).filter(
    (record) => record.response && record.context,
  ) as { response: string; context: string; label?: string }[];
  const contexts = [...new Set(records.map((record) => record.context))];
  const step = Math.max(1, Math.floor(records.length / perSet));
  for (let at = 0; at < records.length && rows.filter((row) => row.set === set).length < perSet; at += step) {
    const record = records[at] as { response: string; context: string; label?: string };
    const others: string[] = [];
    let size = 0;
    for (
      let k = Math.floor(random() * contexts.length);
      size < haystackChars;
      k = (k + 1) % contexts.length
    ) {
      const context = contexts[k] as string;
      if (context === record.context) continue;
      others.push(context);
      size += context.length + 2;
    }
    others.splice(Math.floor(random() * others.length), 0, record.context);
    const haystack = others.join("\n\n");
    const verdicts: string[] = [];
    const ms: number[] = [];
    for (const [verifier, sources] of [
      [focused, [record.context]],
      [focused, [haystack]],
      [unfocused, [haystack]],
    ] as const) {
      const started = performance.now();
      const result = await verifier.verify({ text: record.response, sources: [...sources] });
      ms.push(performance.now() - started);
      verdicts.push(result.verdict);
    }
    rows.push({ set, correct: record.label === "supported", verdicts, ms });
  }
}
await focused.close();
await unfocused.close();

const share = (count: number, of: number) =>
  of === 0 ? "-" : `${((count / of) * 100).toFixed(1)}% (${count}/${of})`;
console.log(
  `${rows.length} records, haystack ${haystackChars} chars of the same set's contexts, ${new Date().toISOString()}`,
);
console.log(
  "| set | run | same verdict as own context | false alarms | recall | median ms |\n|---|---|---|---|---|---|",
);
for (const set of [...new Set(rows.map((row) => row.set)), "all"]) {
  const mine = rows.filter((row) => set === "all" || row.set === set);
  const correct = mine.filter((row) => row.correct);
  const wrong = mine.filter((row) => !row.correct);
  for (const [run, name] of [
    "own context",
    "haystack, focused (default)",
    "haystack, every passage",
  ].entries()) {
    const same = mine.filter((row) => row.verdicts[run] === row.verdicts[0]).length;
    console.log(
      `| ${set} | ${name} | ${share(same, mine.length)} | ${share(correct.filter((row) => row.verdicts[run] === "fail").length, correct.length)} | ${share(wrong.filter((row) => row.verdicts[run] === "fail").length, wrong.length)} | ${median(mine.map((row) => row.ms[run] as number)).toFixed(1)} |`,
    );
  }
}
const agree = rows.filter((row) => row.verdicts[1] === row.verdicts[2]).length;
console.log(
  `focused and every-passage verdicts on the haystack agree on ${share(agree, rows.length)} of records`,
);
