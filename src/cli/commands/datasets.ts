import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Schema } from "effect";
import { datasetsCacheDir } from "../../datasets/cache-dir.js";
import { type FetchedDataset, fetchDataset } from "../../datasets/fetch-dataset.js";
import { DatasetManifest, manifestFileName } from "../../datasets/manifest.js";
import { findDataset, datasets as registeredDatasets } from "../../datasets/registry.js";
import type { DatasetSpec } from "../../datasets/spec.js";
import { parseCommandArgs } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";
import { fetchOptionsOf } from "../datasets-settings.js";
import { commandProgress } from "../progress.js";

const usage = `veracity datasets list
veracity datasets fetch NAME... [--trust-unpinned] [--force] [--cache-dir DIR] [--mirror URL] [--quiet]
veracity datasets path NAME [--cache-dir DIR]

Public labelled sets by name, each pinned to a commit of its source repository with a SHA-256 per file,
downloaded over HTTPS, converted to the common JSONL form and cached with its licence and attribution.
\`veracity eval --data NAME\` reads a dataset by name (fetching it first when needed).

  --trust-unpinned   fetch files whose SHA-256 is not pinned yet (their digests are recorded and printed)
  --force            download and convert again even when an intact copy is cached
  --cache-dir DIR    cache folder (default: $VERACITY_CACHE_DIR, else the user cache dir + veracity/datasets)
  --mirror URL       a host laid out like https://raw.githubusercontent.com (also $VERACITY_DATASETS_MIRROR)
  --quiet, -q        no progress line (it is shown only when stderr is a terminal)

Exit codes: 0 ok, 2 usage error or a dataset that could not be fetched (nothing half-written is kept).`;

const decodeManifest = Schema.decodeUnknownEither(Schema.parseJson(DatasetManifest));

const cachedManifest = async (dir: string): Promise<DatasetManifest | undefined> => {
  const path = join(dir, manifestFileName);
  if (!existsSync(path)) return undefined;
  const decoded = decodeManifest(await readFile(path, "utf8"));
  return decoded._tag === "Right" ? decoded.right : undefined;
};

const pinnedCount = (spec: DatasetSpec): string =>
  `${spec.files.filter((file) => file.sha256 !== null).length}/${spec.files.length} pinned`;

const list = async (registry: readonly DatasetSpec[], cacheDir: string, io: CliIO): Promise<number> => {
  io.stdout(`cache: ${cacheDir}\n\n`);
  for (const spec of registry) {
    const manifest = await cachedManifest(join(cacheDir, spec.name));
    const state =
      manifest === undefined
        ? "not fetched"
        : `fetched ${manifest.fetchedAt.slice(0, 10)}, ${manifest.outputs.reduce((sum, file) => sum + file.lines, 0)} rows`;
    io.stdout(
      `${spec.name.padEnd(13)} ${spec.description}\n${" ".repeat(14)}${spec.repository}@${spec.commit.slice(0, 7)}, ` +
        `${spec.files.length} files (${pinnedCount(spec)}), ${spec.licence}; ${state}\n`,
    );
  }
  return ExitCode.ok;
};

const report = (fetched: FetchedDataset, io: CliIO): void => {
  const { spec, manifest, dir } = fetched;
  const rows = manifest.outputs.map((file) => `${file.name} ${file.lines}`).join(", ");
  io.stdout(`${spec.name}: ${fetched.reused ? "cached" : "fetched"} (${rows}) in ${dir}\n`);
  io.stdout(`  licence: ${spec.licence}\n  attribution: ${spec.attribution}\n`);
  const skipped = Object.entries(manifest.skipped);
  if (skipped.length > 0)
    io.stdout(`  left out: ${skipped.map(([reason, count]) => `${count} (${reason})`).join(", ")}\n`);
  for (const file of manifest.upstream.filter((entry) => !entry.pinned))
    io.stdout(`  not pinned, trusted on first use: ${file.path} sha256 ${file.sha256}\n`);
};

/** `veracity datasets`, over an injected registry (tests pass specs pinned to their fixture files). */
export const makeDatasetsCommand = (registry: readonly DatasetSpec[]): CliCommand => ({
  name: "datasets",
  summary: "list, fetch (pinned, checksummed, cached) and locate the public benchmark sets",
  usage,
  examples: [
    "veracity datasets list",
    "veracity datasets fetch begin summedits --trust-unpinned",
    "veracity datasets path tatqa",
  ],
  run: async (argv, io) => {
    const { values, positionals } = parseCommandArgs(argv, {
      "cache-dir": { type: "string" },
      mirror: { type: "string" },
      "trust-unpinned": { type: "boolean" },
      force: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      help: { type: "boolean", short: "h" },
    });
    const [action, ...names] = positionals;
    if (values.help === true) {
      io.stdout(`${usage}\n`);
      return ExitCode.ok;
    }
    const cacheDir = datasetsCacheDir(io.env, values["cache-dir"]);
    try {
      if (action === "list" && names.length === 0) return await list(registry, cacheDir, io);
      if (action === "path" && names.length === 1) {
        const spec = findDataset(registry, names[0] ?? "");
        const dir = join(cacheDir, spec.name);
        if ((await cachedManifest(dir)) === undefined) {
          io.stderr(
            `veracity datasets: ${spec.name} is not fetched yet: run veracity datasets fetch ${spec.name}\n`,
          );
          return ExitCode.usage;
        }
        io.stdout(`${spec.evalFile === undefined ? dir : join(dir, spec.evalFile)}\n`);
        return ExitCode.ok;
      }
      if (action === "fetch" && names.length > 0) {
        const specs = names.map((name) => findDataset(registry, name));
        const progress = commandProgress(io, values.quiet);
        for (const [index, spec] of specs.entries()) {
          // With several sets, each line says which one of them is being fetched.
          const prefix = specs.length > 1 ? `[${index + 1}/${specs.length}] ` : "";
          const update = progress.update;
          const options = fetchOptionsOf(
            io.env,
            {
              cacheDir: values["cache-dir"],
              mirror: values.mirror,
              trustUnpinned: values["trust-unpinned"],
              force: values.force,
            },
            update === undefined ? undefined : (message) => update(`${prefix}${message}`),
          );
          // The progress line is cleared before the report, which then starts on a line of its own.
          const fetched = await fetchDataset(spec, options).finally(() => progress.done());
          report(fetched, io);
        }
        return ExitCode.ok;
      }
    } catch (error) {
      if ((error as { _tag?: unknown })._tag === "DatasetError") {
        io.stderr(`veracity datasets: ${(error as Error).message}\n`);
        return ExitCode.usage;
      }
      throw error;
    }
    throw new UsageError(`expected "list", "fetch NAME..." or "path NAME"\n\n${usage}`);
  },
});

export const datasetsCommand: CliCommand = makeDatasetsCommand(registeredDatasets);
