import { makeCitationsLayer } from "../../citations/index.js";
import {
  issueTrackerFromEnv,
  repositoryCitationOptions,
} from "../../citations/verifiers/repository-citations.js";
import { createVerifier } from "../../facade/create-verifier.js";
import { createMemoryGate, type MemoryGateClient } from "../../memory/index.js";
import { CalculationRecorder } from "../../numbers/index.js";
import type { McpDependencies } from "./tools.js";

export interface McpDependencyOptions {
  /** The memory store: a PGlite directory, `memory://` (default) or a `postgres://` URL. */
  readonly memoryDatabase?: string;
  /** The repository whose commits and ADRs citations and memories may point to (default: cwd). */
  readonly repositoryDir?: string;
  /** The only user the memory tools act for (see `McpDependencies.userId`). */
  readonly userId?: string;
  /** `VERACITY_ISSUES_URL` and `VERACITY_ISSUES_TOKEN` name the issue tracker (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The offline verifier (grounding, numbers, and citations of the repository's commits and ADRs) and a memory
 * gate opened on first use.
 */
export const openMcpDependencies = (
  options: McpDependencyOptions = {},
): McpDependencies & { readonly close: () => Promise<void> } => {
  const env = options.env ?? process.env;
  const issues = issueTrackerFromEnv(env);
  const citations = makeCitationsLayer(
    repositoryCitationOptions(options.repositoryDir ?? process.cwd(), env),
  );
  const verifier = createVerifier({ extraLayers: [citations] });
  let gate: Promise<MemoryGateClient> | undefined;
  return {
    verifier,
    // One server acts for one client or one user (`--http` needs `--user`): its calculations are its own.
    calculations: new CalculationRecorder(),
    ...(options.userId === undefined ? {} : { userId: options.userId }),
    memory: () => {
      gate ??= createMemoryGate({
        database: options.memoryDatabase ?? "memory://",
        ...(options.repositoryDir === undefined ? {} : { repositoryDir: options.repositoryDir }),
        ...(issues === undefined ? {} : { issues }),
      });
      return gate;
    },
    close: async () => {
      await verifier.close();
      if (gate !== undefined) await (await gate.catch(() => undefined))?.close();
    },
  };
};
