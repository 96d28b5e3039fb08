import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Schema } from "effect";
import { EvalRecord } from "../eval/record.js";
import { downloadTo } from "./download.js";
import { DatasetError } from "./errors.js";
import { DatasetManifest, manifestFileName } from "./manifest.js";
import type { DatasetSpec } from "./spec.js";
import { upstreamUrl } from "./upstream-url.js";

export interface FetchOptions {
  readonly cacheDir: string;
  /** Base URL laid out like GitHub's raw host; default https://raw.githubusercontent.com. */
  readonly mirror?: string;
  /** Fetch files whose digest the registry does not pin (their digests are recorded, not checked). */
  readonly trustUnpinned: boolean;
  /** Download and convert again even when a complete copy is cached. */
  readonly force: boolean;
  readonly idleTimeoutMs: number;
  readonly maxBytesPerFile: number;
  readonly licenceDir: string;
  /** Progress lines ("summedits: 2/6 files, 1.2 MB"); the caller decides whether and how to show them. */
  readonly progress?: (message: string) => void;
}

export interface FetchedDataset {
  readonly spec: DatasetSpec;
  readonly dir: string;
  readonly manifest: DatasetManifest;
  /** True when a complete cached copy was used and nothing was downloaded. */
  readonly reused: boolean;
}

export const defaultIdleTimeoutMs = 30_000;
export const defaultMaxBytesPerFile = 256 * 1024 * 1024;

const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");
const decodeManifest = Schema.decodeUnknownEither(Schema.parseJson(DatasetManifest));
const decodeRecord = Schema.decodeUnknownEither(Schema.parseJson(EvalRecord));

const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** The cached copy, when it is complete, from the same commit and converter, and its outputs are intact. */
const intactCache = async (spec: DatasetSpec, dir: string): Promise<DatasetManifest | undefined> => {
  const path = join(dir, manifestFileName);
  if (!existsSync(path)) return undefined;
  const decoded = decodeManifest(await readFile(path, "utf8"));
  if (decoded._tag === "Left") return undefined;
  const manifest = decoded.right;
  if (manifest.commit !== spec.commit || manifest.converterVersion !== spec.converterVersion)
    return undefined;
  const pinsHold = spec.files.every((file) => {
    const recorded = manifest.upstream.find((entry) => entry.path === file.path);
    return recorded !== undefined && (file.sha256 === null || recorded.sha256 === file.sha256);
  });
  if (!pinsHold) return undefined;
  for (const output of manifest.outputs) {
    const file = join(dir, output.name);
    if (!existsSync(file) || sha256(await readFile(file)) !== output.sha256) return undefined;
  }
  return manifest;
};

const attributionText = (spec: DatasetSpec, manifest: Pick<DatasetManifest, "upstream">): string =>
  [
    `# ${spec.title}`,
    "",
    spec.attribution,
    "",
    `Source: https://github.com/${spec.repository} at commit ${spec.commit}`,
    `Licence: ${spec.licence} (texts: ${spec.licenceFiles.join(", ")})`,
    "",
    "Converted by Veracity (`veracity datasets fetch`) into the common JSONL form of docs/EVALUATION.md from:",
    ...manifest.upstream.map(
      (file) =>
        `- ${file.path} (sha256 ${file.sha256}${file.pinned ? "" : ", not pinned: trusted on first use"})`,
    ),
    "",
  ].join("\n");

/**
 * Downloads a dataset's pinned files, checks each against its SHA-256, converts them into the common JSONL
 * form and moves the result into `cacheDir/NAME` in one rename. Everything is written under a temporary
 * folder first and removed on any failure, so the cache holds either a complete dataset or nothing new.
 */
export const fetchDataset = async (spec: DatasetSpec, options: FetchOptions): Promise<FetchedDataset> => {
  const dir = join(options.cacheDir, spec.name);
  if (!options.force) {
    const cached = await intactCache(spec, dir);
    if (cached !== undefined) return { spec, dir, manifest: cached, reused: true };
  }
  const unpinned = spec.files.filter((file) => file.sha256 === null);
  if (unpinned.length > 0 && !options.trustUnpinned) {
    throw new DatasetError({
      message:
        `${spec.name}: ${unpinned.length} of ${spec.files.length} upstream files have no pinned SHA-256 yet ` +
        `(${unpinned.map((file) => file.path).join(", ")}). To fetch them anyway, run ` +
        `veracity datasets fetch ${spec.name} --trust-unpinned: their digests are recorded in the cache ` +
        "manifest and printed.",
      code: "unpinned",
    });
  }
  await mkdir(options.cacheDir, { recursive: true });
  const staging = await mkdtemp(join(options.cacheDir, `.tmp-${spec.name}-`));
  try {
    const texts = new Map<string, string>();
    const upstream: DatasetManifest["upstream"][number][] = [];
    let total = 0;
    for (const [index, file] of spec.files.entries()) {
      const url = upstreamUrl(spec, file, options.mirror);
      const target = join(staging, `upstream-${index}`);
      const downloaded = await downloadTo(url, target, {
        idleTimeoutMs: options.idleTimeoutMs,
        maxBytes: options.maxBytesPerFile,
        onProgress: (received) =>
          options.progress?.(
            `${spec.name}: file ${index + 1}/${spec.files.length}, ${megabytes(total + received)}`,
          ),
      });
      total += downloaded.bytes;
      if (file.sha256 !== null && downloaded.sha256 !== file.sha256.toLowerCase()) {
        throw new DatasetError({
          message:
            `${spec.name}: checksum mismatch for ${file.path}: expected sha256 ${file.sha256}, ` +
            `got ${downloaded.sha256} (${url.href}). Nothing was written to the cache.`,
          code: "checksum-mismatch",
        });
      }
      texts.set(file.path, await readFile(target, "utf8"));
      await rm(target);
      upstream.push({
        path: file.path,
        url: url.href,
        bytes: downloaded.bytes,
        sha256: downloaded.sha256,
        pinned: file.sha256 !== null,
      });
    }
    options.progress?.(`${spec.name}: converting`);
    let conversion: ReturnType<DatasetSpec["convert"]>;
    try {
      conversion = spec.convert(texts);
    } catch (error) {
      throw new DatasetError({
        message: `${spec.name}: the upstream files do not have the expected form: ${(error as Error).message}`,
        code: "conversion",
      });
    }
    const outputs: DatasetManifest["outputs"][number][] = [];
    for (const output of conversion.files) {
      if (output.name === spec.evalFile) assertRecords(spec, output.lines);
      const content = output.lines.length === 0 ? "" : `${output.lines.join("\n")}\n`;
      await mkdir(join(staging, output.name, ".."), { recursive: true });
      await writeFile(join(staging, output.name), content);
      outputs.push({ name: output.name, sha256: sha256(content), lines: output.lines.length });
    }
    for (const licence of spec.licenceFiles)
      await copyFile(join(options.licenceDir, licence), join(staging, licence));
    const manifest: DatasetManifest = {
      name: spec.name,
      repository: spec.repository,
      commit: spec.commit,
      licence: spec.licence,
      attribution: spec.attribution,
      converterVersion: spec.converterVersion,
      fetchedAt: new Date().toISOString(),
      upstream,
      outputs,
      skipped: conversion.skipped,
    };
    await writeFile(join(staging, "ATTRIBUTION.md"), attributionText(spec, manifest));
    await writeFile(join(staging, manifestFileName), `${JSON.stringify(manifest, null, 2)}\n`);
    await replaceDir(staging, dir);
    return { spec, dir, manifest, reused: false };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
};

/** Fails closed when the converter produced a line that is not a record of the common form. */
const assertRecords = (spec: DatasetSpec, lines: readonly string[]): void => {
  if (lines.length === 0)
    throw new DatasetError({
      message: `${spec.name}: the conversion produced no record`,
      code: "conversion",
    });
  lines.forEach((line, index) => {
    if (decodeRecord(line)._tag === "Left")
      throw new DatasetError({
        message: `${spec.name}: converted line ${index + 1} is not a record of the common form`,
        code: "conversion",
      });
  });
};

/** Moves the finished `staging` folder to `dir`, replacing an older copy only once the new one is in place. */
const replaceDir = async (staging: string, dir: string): Promise<void> => {
  if (!existsSync(dir)) {
    await rename(staging, dir);
    return;
  }
  const old = `${staging}-old`;
  await rename(dir, old);
  try {
    await rename(staging, dir);
  } catch (error) {
    await rename(old, dir);
    throw error;
  }
  await rm(old, { recursive: true, force: true });
};
