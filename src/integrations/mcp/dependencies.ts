import { buildVerifier, type VerifierFlags } from "../../assembly/build-verifier.js";
import { requestUserFactMemory } from "../../assembly/fact-memory.js";
import { lazyVerifier } from "../../assembly/lazy-verifier.js";
import { openMemoryGate } from "../../assembly/memory-gate.js";
import { CalculationRecorder } from "../../checks/numbers/index.js";
import type { MemoryGateClient } from "../../memory/index.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import type { McpDependencies } from "./tools.js";

export interface McpDependencyOptions {
  /** The memory store: a PGlite directory, `memory://` (default) or a `postgres://` URL. */
  readonly memoryDatabase?: string;
  /**
   * An SQL client the caller already holds for the memory store (`veracity mcp --http` shares the one its API
   * keys are read from: one embedded database cannot be opened twice). It wins over `memoryDatabase` and is
   * left open by `close`.
   */
  readonly memorySql?: SqlClientService;
  /** The repository whose commits and ADRs citations and memories may point to (default: cwd). */
  readonly repositoryDir?: string;
  /** The only user the memory tools act for (see `McpDependencies.userId`). */
  readonly userId?: string;
  /**
   * The verifier's configuration, as for `veracity check`: settings file, model, calibration, evidence store.
   * Its `repository` defaults to `repositoryDir`.
   */
  readonly verifier?: VerifierFlags;
  /** `VERACITY_*` variables (settings, model, issue tracker); default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The assembled verifier (by default: grounding, numbers, and citations of the repository's commits and
 * ADRs) and a memory gate, each opened on first use.
 */
export const openMcpDependencies = (
  options: McpDependencyOptions = {},
): McpDependencies & { readonly close: () => Promise<void> } => {
  const env = options.env ?? process.env;
  const repositoryDir = options.repositoryDir ?? process.cwd();
  let gate: Promise<MemoryGateClient> | undefined;
  const memory = () => {
    gate ??= openMemoryGate(
      options.memorySql === undefined
        ? { database: options.memoryDatabase ?? "memory://", repositoryDir }
        : { sql: options.memorySql, repositoryDir },
      env,
    );
    return gate;
  };
  // With a model, fact decomposition reads the facts of the user a call acts for from this memory store.
  const facts = requestUserFactMemory({
    search: async (userId, query, limit) => (await memory()).search(userId, query, limit),
  });
  const verifier = lazyVerifier(() =>
    buildVerifier({ repository: repositoryDir, factMemory: facts, ...options.verifier }, {}, env),
  );
  return {
    verifier,
    // Over stdio one server acts for one client: its calculations are its own. Over HTTP with keys each user
    // gets a recorder of their own (http.ts); this one serves stdio and the unauthenticated mode.
    calculations: new CalculationRecorder(),
    ...(options.userId === undefined ? {} : { userId: options.userId }),
    memory,
    close: async () => {
      await verifier.close();
      if (gate !== undefined) await (await gate.catch(() => undefined))?.close();
    },
  };
};
