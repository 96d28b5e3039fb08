/**
 * CLI start-up beside Node's own: `veracity --version`, `veracity --help`, `veracity check` on a small file
 * and importing the library (`import("veracity")`), each against `node -e 0`, run alternately so all see the
 * same machine load. Reports medians and the ratio to `node -e 0`. Needs a build (dist/).
 *
 * `--baseline DIR` also times another build's dist folder (say, an earlier commit built into a scratch copy)
 * in the same alternating rounds, so a change is measured against its baseline under the same load.
 *
 *   node --import tsx bench/startup.bench.ts [rounds] [--baseline DIR]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./libraries/statistics.js";

const { values, positionals } = parseArgs({
  options: { baseline: { type: "string" } },
  allowPositionals: true,
});
const rounds = Number(positionals[0] ?? 21);
const repoRoot = resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "veracity-startup-"));
writeFileSync(join(scratch, "answer.md"), "The Eiffel Tower is 330 metres tall.");
writeFileSync(join(scratch, "source.md"), "The Eiffel Tower is 330 metres tall. It was completed in 1889.");

/** The four commands of one build; `importSpecifier` is what the library import names. */
const commandsOf = (dist: string, importSpecifier: string, suffix = ""): Record<string, string[]> => {
  const cli = join(dist, "cli/main.js");
  return {
    [`veracity --version${suffix}`]: [cli, "--version"],
    [`veracity --help${suffix}`]: [cli, "--help"],
    [`veracity check (small file)${suffix}`]: [
      cli,
      "check",
      join(scratch, "answer.md"),
      "--source",
      join(scratch, "source.md"),
    ],
    [`node -e 'import("veracity")'${suffix}`]: [
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(importSpecifier)});`,
    ],
  };
};

const commands: Record<string, string[]> = {
  "node -e 0": ["-e", "0"],
  ...commandsOf(resolve(repoRoot, "dist"), "veracity"),
  ...(values.baseline === undefined
    ? {}
    : commandsOf(
        resolve(values.baseline),
        pathToFileURL(resolve(values.baseline, "index.js")).href,
        " [baseline]",
      )),
};

const timeOnce = (args: string[]): number => {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: "ignore", cwd: repoRoot }); // where `veracity` resolves
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`${args.join(" ")} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
};

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const args of Object.values(commands)) timeOnce(args); // warm the file cache
for (let round = 0; round < rounds; round++)
  for (const [name, args] of Object.entries(commands)) samples[name]?.push(timeOnce(args));

const baseline = median(samples["node -e 0"] ?? []);
console.log(
  `node ${process.version}, ${rounds} alternating rounds, load ${execFileSync("cat", ["/proc/loadavg"]).toString().split(" ").slice(0, 3).join(" ")}`,
);
console.log("| command | median ms | ratio to node -e 0 |");
console.log("|---|---|---|");
for (const [name, values] of Object.entries(samples))
  console.log(`| ${name} | ${median(values).toFixed(1)} | ${(median(values) / baseline).toFixed(2)}x |`);
