/**
 * A new `veracity mcp` process's first tool calls over stdio: `verify` of distinct real payloads (about 1 KB of
 * answer against about 10 KB of sources, cut from the labelled sets), sent one at a time, so each latency is
 * the call's own. Each round starts four processes of the built CLI (`npm run build` first), in this order:
 * with no warm-up (`--warm-up-ms 0`) and with the default, each once calling right after the handshake and once
 * after waiting `--wait-ms` (default 3,500: past the default warm-up's 3 s). No payload is sent twice in a
 * process, and each process starts at a different place in the payloads.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/mcp-first-calls.bench.ts [rounds, default 4]
 *     [--wait-ms <n>] [--calls <n>, default 40]
 *
 * Reported per process: its first call, the median of its first ten and of its last twenty (`median`: the upper
 * of the two middle values), and its slowest.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { machineLine } from "./libraries/call-timings.js";
import { buildPayloads } from "./libraries/real-payloads.js";
import { median } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const waitMs = flag("--wait-ms", 3_500);
const calls = Math.max(30, flag("--calls", 40));
const flagValues = new Set(["--wait-ms", "--calls"].map((name) => args[args.indexOf(name) + 1]));
const rounds = Number(args.find((arg) => /^\d+$/.test(arg) && !flagValues.has(arg)) ?? 4);
const cli = join(import.meta.dirname, "../dist/cli/main.js");
const payloads = await buildPayloads();

const run = async (warmUpMs: string, wait: number, offset: number) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--warm-up-ms", warmUpMs],
    stderr: "ignore",
  });
  const client = new Client({ name: "veracity-bench", version: "0.0.0" });
  await client.connect(transport);
  try {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const latencies: number[] = [];
    for (let call = 0; call < calls; call++) {
      const payload = payloads[(offset + call * 7) % payloads.length] as (typeof payloads)[number];
      const started = performance.now();
      const answer = await client.callTool({ name: "verify", arguments: { ...payload } });
      latencies.push(performance.now() - started);
      if (answer.isError) throw new Error(`verify failed: ${JSON.stringify(answer.content).slice(0, 300)}`);
    }
    return latencies;
  } finally {
    await client.close();
  }
};

console.log(machineLine());
console.log(`${calls} distinct verify calls per process; waiting ${waitMs} ms means after connecting`);
console.log(
  "| round | warm-up | first call after | first ms | median of first 10 | median of last 20 | slowest |",
);
console.log("|---|---|---|---|---|---|---|");
let offset = 0;
for (let round = 1; round <= rounds; round++) {
  for (const warmUpMs of ["0", "3000"])
    for (const wait of [0, waitMs]) {
      const latencies = await run(warmUpMs, wait, offset);
      offset += 1;
      console.log(
        `| ${round} | ${warmUpMs === "0" ? "none" : "default"} | ${wait === 0 ? "the handshake" : `${wait} ms`} | ${(latencies[0] as number).toFixed(0)} | ${median(latencies.slice(0, 10)).toFixed(1)} | ${median(latencies.slice(-20)).toFixed(1)} | ${Math.max(...latencies).toFixed(0)} |`,
      );
    }
}
