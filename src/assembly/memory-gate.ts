import path from "node:path";
import { issueTrackerFromEnv } from "../checks/citations/verifiers/repository-citations.js";
import {
  type CreateMemoryGateOptions,
  createMemoryGate,
  type MemoryGateClient,
} from "../memory/gate/create-memory-gate.js";
import type { SqlClientService } from "../storage/sql-client.js";
import { openMemoryGateOnSql } from "./memory-gate-on-sql.js";

/** Where the memory gate keeps memories and what its citation checks may look at. */
export interface MemoryGateConfig {
  /** A PGlite directory, `memory://` (default) or a `postgres://` URL; ignored when `sql` is given. */
  readonly database?: string;
  /** An SQL client the caller already holds (the server's): the gate shares it and leaves it open. */
  readonly sql?: SqlClientService;
  /** The repository whose commits and ADRs memories may cite (default: the working directory). */
  readonly repositoryDir?: string;
  /** Write an audit entry per decision (what the CLI's memory commands do). */
  readonly auditTrail?: boolean;
  /** Let URL citations be fetched (off by default: a URL check must not reach the network unasked). */
  readonly fetchUrls?: boolean;
}

/**
 * The memory gate for a configuration, the same on every surface: citations of commits and ADRs are checked in
 * `repositoryDir`, issue references against `VERACITY_ISSUES_URL` when it is set.
 */
export const openMemoryGate = (
  config: MemoryGateConfig = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<MemoryGateClient> => {
  const issues = issueTrackerFromEnv(env);
  const repositoryDir = path.resolve(config.repositoryDir ?? process.cwd());
  if (config.sql !== undefined)
    return openMemoryGateOnSql(config.sql, { repositoryDir, ...(issues === undefined ? {} : { issues }) });
  const options: CreateMemoryGateOptions = {
    database: config.database ?? "memory://",
    repositoryDir,
    ...(config.auditTrail === undefined ? {} : { auditTrail: config.auditTrail }),
    ...(config.fetchUrls === undefined ? {} : { fetchUrls: config.fetchUrls }),
    ...(issues === undefined ? {} : { issues }),
  };
  return createMemoryGate(options);
};
