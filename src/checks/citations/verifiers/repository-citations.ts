import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CitationsLayerOptions } from "../layer.js";
import type { IssueVerifierOptions } from "./issue-verifier.js";

/**
 * The citations layer's options for a repository as plain data (no store, no functions): what a worker thread
 * builds the same layer from. `rpcUrl` is the Ethereum endpoint asked about transactions and blocks.
 */
export interface RepositoryCitations {
  /** The repository whose commits may be cited. */
  readonly git?: { readonly repository: string };
  /** Its folder of architecture decision records. */
  readonly adr?: { readonly directory: string };
  /** The issue tracker (a GitHub-style base) and its bearer token. */
  readonly issues?: { readonly endpoint: string; readonly token?: string };
  /** Ethereum JSON-RPC endpoint asked about transactions and blocks. */
  readonly rpcUrl?: string;
}

/** Where a repository keeps its architecture decision records, in the usual places, in this order. */
export const adrFolders = ["docs/adr", "docs/adrs", "docs/decisions", "doc/adr", "adr", "decisions"] as const;

/**
 * The repository's ADR folder: the first of the usual ones that exists. The CLI, the server, MCP and the
 * memory gate all resolve it here, so one repository has one set of decision records whichever surface asks.
 */
export const findAdrDirectory = (repository: string): string | undefined =>
  adrFolders.map((folder) => join(resolve(repository), folder)).find((folder) => existsSync(folder));

/**
 * The issue tracker citations of issues (#123, GH-45) are checked against: `VERACITY_ISSUES_URL`, a
 * GitHub-style base (`https://api.github.com/repos/<owner>/<repo>`), with `VERACITY_ISSUES_TOKEN` as its
 * bearer token. Without it issue citations cannot be verified (an error, never a pass).
 */
export const issueTrackerFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
): Pick<IssueVerifierOptions, "endpoint" | "token"> | undefined => {
  const endpoint = env.VERACITY_ISSUES_URL?.trim();
  if (endpoint === undefined || endpoint === "") return undefined;
  const token = env.VERACITY_ISSUES_TOKEN?.trim();
  return { endpoint, ...(token ? { token } : {}) };
};

/**
 * The citations layer's options for one repository: its commits (git, no shell), its decision records when
 * it has an ADR folder, and the issue tracker the environment names. What `veracity check --repo`,
 * `veracity serve` and `veracity mcp` use.
 */
export const repositoryCitationOptions = (
  repository: string,
  env: Readonly<Record<string, string | undefined>> = {},
): Pick<CitationsLayerOptions, "git" | "adr" | "issues"> => {
  const root = resolve(repository);
  const adrDirectory = findAdrDirectory(root);
  const issues = issueTrackerFromEnv(env);
  return {
    git: { repository: root },
    ...(adrDirectory === undefined ? {} : { adr: { directory: adrDirectory } }),
    ...(issues === undefined ? {} : { issues }),
  };
};
