/**
 * One filing, many answers: an agent checks answer after answer against the same large sources, the case
 * `sourceRefs` and the verifier's caches exist for. The sources repeat on purpose (this scenario is about reading
 * them again); every answer is distinct (about 1 KB, cut from the labelled sets' responses), and the sources are
 * the labelled sets' contexts cycled to size, cut into sources of at most 1,000,000 characters.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:repeated-filing -- [--chars N] [--answers N]
 *     [--baseline <another build's dist>] [--server]
 *
 * `--chars` defaults to 1,990,000: two sources, under the 2,000,000 characters of evidence a server request may
 * name. In-process (default): a verifier of this tree's build verifies each answer against the same source strings;
 * with `--baseline`, a verifier of the other build verifies each answer too, the two alternating which goes first.
 * `--server`: a server of this tree's build in its own process (BENCH_SERVER_SCRIPT names another build's
 * bench-server.js), its default limits; the sources are uploaded once (`POST /v1/sources`) and each answer is
 * checked with their hashes in `sourceRefs` (`POST /v1/check`), one request after another. Reported: the median
 * and the slowest of the answers after the first five (the first ones index the sources and compile the code),
 * beside the median of `JSON.parse` of one check's body with the sources inline.
 */
import { parseArgs } from "node:util";
import { cacheLineOf } from "./libraries/cache-metrics.js";
import { machineLine } from "./libraries/call-timings.js";
import { thisTreesDist, verifierOfBuild } from "./libraries/paired-builds.js";
import { buildPayloads, largeSources } from "./libraries/real-payloads.js";
import { startServerProcess } from "./libraries/server-process.js";
import { median } from "./libraries/statistics.js";

const { values } = parseArgs({
  options: {
    chars: { type: "string", default: "1990000" },
    answers: { type: "string", default: "60" },
    baseline: { type: "string" },
    server: { type: "boolean", default: false },
  },
});
const chars = Number(values.chars);
const answerCount = Number(values.answers);
const warm = 5;

const answers = (await buildPayloads()).map((payload) => payload.text).slice(0, answerCount);
const sources = await largeSources(chars);
const inline = JSON.stringify({ text: answers[0], sources });
const parses: number[] = [];
for (let run = 0; run < 7; run++) {
  const started = performance.now();
  JSON.parse(inline);
  parses.push(performance.now() - started);
}
console.log(
  `${machineLine()}; ${sources.length} sources, ${chars} characters, ${answers.length} distinct answers`,
);
const summary = (times: readonly number[]) => {
  const measured = times.slice(warm);
  return `median ${median(measured).toFixed(1)} ms, slowest ${Math.max(...measured).toFixed(1)} ms`;
};

if (values.server) {
  const server = await startServerProcess();
  const headers = { "content-type": "application/json", authorization: `Bearer ${server.key}` };
  try {
    const hashes: string[] = [];
    for (const text of sources) {
      const response = await fetch(`${server.url}/v1/sources`, {
        method: "POST",
        headers,
        body: JSON.stringify({ text }),
      });
      const body = (await response.json()) as { hash?: string };
      if (response.status !== 201 || body.hash === undefined)
        throw new Error(`upload refused: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      hashes.push(body.hash);
    }
    const times: number[] = [];
    for (const text of answers) {
      const started = performance.now();
      const response = await fetch(`${server.url}/v1/check`, {
        method: "POST",
        headers,
        body: JSON.stringify({ text, sourceRefs: hashes }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`check answered ${response.status}`);
      times.push(performance.now() - started);
    }
    console.log(`server ${server.script}: POST /v1/check with sourceRefs, ${summary(times)}`);
    console.log(
      `the server's caches, look-ups answered over the run (its /metrics): ${await cacheLineOf(server.url)}`,
    );
  } finally {
    await server.stop();
  }
} else {
  const sides = [
    { name: "this tree", verifier: await verifierOfBuild(thisTreesDist), times: [] as number[] },
  ];
  if (values.baseline)
    sides.push({ name: values.baseline, verifier: await verifierOfBuild(values.baseline), times: [] });
  for (const [index, text] of answers.entries()) {
    const order = index % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const started = performance.now();
      await side.verifier.verify({ text, sources });
      side.times.push(performance.now() - started);
    }
  }
  for (const side of sides) {
    console.log(`${side.name}: ${summary(side.times)}`);
    await side.verifier.close();
  }
  if (sides.length === 2) {
    const [current, baseline] = sides as [(typeof sides)[0], (typeof sides)[0]];
    console.log(
      `baseline / this tree, medians: ${(median(baseline.times.slice(warm)) / median(current.times.slice(warm))).toFixed(2)}x`,
    );
  }
}
console.log(
  `JSON.parse of one check's body with the sources inline (baseline): median ${median(parses).toFixed(1)} ms`,
);
