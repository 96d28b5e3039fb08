import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CitationsLayerOptions } from "../layer.js";

/** Where a repository keeps its architecture decision records, in the usual places. */
const adrFolders = ["docs/adr", "docs/adrs", "docs/decisions", "adr", "decisions"] as const;

/** The repository's ADR folder, when it has one of the usual ones. */
const findAdrDirectory = (repository: string): string | undefined =>
  adrFolders.map((folder) => join(repository, folder)).find((folder) => existsSync(folder));

/**
 * The citations layer's options for one repository: its commits (git, no shell) and, when it has an ADR
 * folder, its decision records. What `veracity check --repo` and `veracity mcp` use.
 */
export const repositoryCitationOptions = (repository: string): Pick<CitationsLayerOptions, "git" | "adr"> => {
  const root = resolve(repository);
  const adrDirectory = findAdrDirectory(root);
  return {
    git: { repository: root },
    ...(adrDirectory === undefined ? {} : { adr: { directory: adrDirectory } }),
  };
};
