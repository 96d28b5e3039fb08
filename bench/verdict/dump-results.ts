// Runs the default verifier over labelled JSONL files and writes, per record, its label and the parts of the
// result the answer combiner learns from (claims with their verdicts, issues and signals; layer scores).
// Usage: node --import tsx bench/verdict/dump-results.ts OUT.jsonl FILE.jsonl...
import { createWriteStream } from "node:fs";
import { readEvalRecords } from "../../src/eval/datasets/read-records.js";
import { requestForRecord } from "../../src/eval/runner.js";
import { createVerifier } from "../../src/facade/create-verifier.js";

const [out, ...files] = process.argv.slice(2);
if (!out || files.length === 0) throw new Error("usage: dump-results.ts OUT.jsonl FILE.jsonl...");
const verifier = createVerifier();
const sink = createWriteStream(out);
for (const file of files) {
  for await (const record of readEvalRecords(file, {
    onMalformed: "fail",
    reportMalformed: () => {},
    maxRecords: 1_000_000,
  })) {
    const result = await verifier.verify(requestForRecord(record, undefined));
    sink.write(
      `${JSON.stringify({
        id: record.id,
        dataset: record.dataset,
        label: record.label,
        claims: result.claims.map((claim) => ({
          verdict: claim.verdict,
          score: claim.score,
          kind: claim.kind,
          layers: claim.layers,
          codes: claim.issues.map((issue) => issue.code),
          signals: claim.signals,
          length: claim.text.length,
        })),
        layers: result.layersRun.map((layer) => ({
          layer: layer.layer,
          score: layer.score,
          passed: layer.passed,
        })),
        passed: result.passed,
      })}\n`,
    );
  }
}
sink.end();
await verifier.close();
