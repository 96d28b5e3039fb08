import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Effect, Layer } from "effect";
import { citationKey } from "../../checks/citations/citation.js";
import { makeAdrVerifier } from "../../checks/citations/verifiers/adr-verifier.js";
import { makeGitVerifier } from "../../checks/citations/verifiers/git-verifier.js";
import { makeIssueVerifier } from "../../checks/citations/verifiers/issue-verifier.js";
import { findAdrDirectory } from "../../checks/citations/verifiers/repository-citations.js";
import { makeUrlVerifier, type UrlVerifierOptions } from "../../checks/citations/verifiers/url-verifier.js";
import type { CitationVerifier as ModuleVerifier } from "../../checks/citations/verifiers/verifier.js";
import { CitationCheckError } from "../errors.js";
import { type CitationVerdict, CitationVerifier, type CitationVerifierService } from "./citation-verifier.js";
import type { CitationKind, DetectedCitation } from "./detect-citations.js";

export interface LocalCitationVerifierOptions {
  /** The repository the claims talk about (for ADR files and commits). */
  readonly repositoryDir: string;
  /** Where ADRs live, relative to the repository; by default the first usual folder that exists (`findAdrDirectory`). */
  readonly adrDir?: string;
  /** Time limit of git and of each URL. */
  readonly timeoutMs?: number;
  /** Most characters of an artifact kept for the relevance check. */
  readonly maxContentChars?: number;
  /** Check URLs over HTTP (the citation module's SSRF-guarded verifier). Off by default: offline. */
  readonly fetchUrls?: boolean;
  readonly url?: UrlVerifierOptions;
  /** A GitHub-style issue endpoint; without it issue references cannot be verified. */
  readonly issues?: { readonly endpoint: string; readonly token?: string };
}

const git = (cwd: string, args: readonly string[], timeoutMs: number) =>
  new Promise<string>((resolve, reject) => {
    execFile(
      "git",
      ["-C", cwd, ...args],
      { timeout: timeoutMs, maxBuffer: 1 << 20, shell: false },
      (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
    );
  });

const adrFileNumber = /^(?:adr[-_ ]?)?0*(\d{1,4})(?=[-_ .])/i;

/**
 * The memory gate's default citation verifier: existence is decided by the citation module's verifiers (ADR
 * folder, `git cat-file`, SSRF-guarded HTTP, issue tracker); the artifact's text for the relevance check is
 * the ADR file or the commit message. URL and issue verifiers do not return the page, so a claim that says
 * more than its URL cannot have its relevance checked and is reviewed.
 */
export const makeLocalCitationVerifier = (options: LocalCitationVerifierOptions): CitationVerifierService => {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxChars = options.maxContentChars ?? 20_000;
  const adrDir =
    options.adrDir === undefined
      ? (findAdrDirectory(options.repositoryDir) ?? path.resolve(options.repositoryDir, "docs/adr"))
      : path.resolve(options.repositoryDir, options.adrDir);
  const verifiers: Partial<Record<CitationKind, ModuleVerifier>> = {
    adr: makeAdrVerifier({ directory: adrDir }),
    commit: makeGitVerifier({ repository: options.repositoryDir, timeoutMs }),
    ...(options.fetchUrls === true ? { url: makeUrlVerifier({ timeoutMs, ...options.url }) } : {}),
    ...(options.issues === undefined ? {} : { issue: makeIssueVerifier({ ...options.issues, timeoutMs }) }),
  };

  const contentOf = (citation: DetectedCitation): Promise<string | undefined> => {
    if (citation.kind === "adr")
      return readdir(adrDir).then(async (files) => {
        const file = files.find(
          (name) => Number(adrFileNumber.exec(name)?.[1]) === Number(citation.extracted.value),
        );
        return file === undefined
          ? undefined
          : (await readFile(path.join(adrDir, file), "utf8")).slice(0, maxChars);
      });
    if (citation.kind === "commit")
      return git(
        options.repositoryDir,
        ["show", "-s", "--format=%B", citation.extracted.value],
        timeoutMs,
      ).then((message) => message.slice(0, maxChars));
    return Promise.resolve(undefined);
  };

  return {
    verify: (citation) =>
      Effect.gen(function* () {
        const verifier = verifiers[citation.kind];
        if (verifier === undefined)
          return yield* Effect.fail(
            new CitationCheckError({
              message: `no ${citation.kind} verifier configured`,
              citation: citation.id,
            }),
          );
        const checks = yield* verifier.verify([citation.extracted]);
        const check = checks.get(citationKey(citation.extracted.kind, citation.extracted.value));
        if (check === undefined || check.status === "ERROR")
          return yield* Effect.fail(
            new CitationCheckError({
              message: check?.detail ?? "the verifier gave no answer",
              citation: citation.id,
            }),
          );
        if (check.status !== "VERIFIED")
          return { citation, verified: false, reason: check.detail } satisfies CitationVerdict;
        const content = yield* Effect.tryPromise({
          try: () => contentOf(citation),
          catch: (cause) =>
            new CitationCheckError({
              message: `could not read ${citation.id}: ${String(cause)}`,
              citation: citation.id,
              cause,
            }),
        });
        return {
          citation,
          verified: true,
          reason: check.detail,
          ...(content === undefined ? {} : { content }),
        } satisfies CitationVerdict;
      }),
  };
};

export const LocalCitationVerifierLayer = (options: LocalCitationVerifierOptions) =>
  Layer.succeed(CitationVerifier, makeLocalCitationVerifier(options));
