import type { CliCommand } from "../command.js";

/** A command as the dispatcher sees it: loaded only when run, so `veracity check` does not load the server. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CliCommand>;
}

/** Every `veracity` subcommand but `check`. One entry per command (a test keeps names and summaries in sync). */
export const commands: readonly CommandEntry[] = [
  {
    name: "audit",
    summary: "verify the audit trail's hash chain (detects edited, deleted or reordered entries)",
    load: async () => (await import("./audit.js")).auditCommand,
  },
  {
    name: "calc",
    summary: "evaluate an arithmetic expression exactly (no eval)",
    load: async () => (await import("./calc.js")).calcCommand,
  },
  {
    name: "calibrate",
    summary: "fit per-layer Platt calibration on an eval run and report ECE before/after",
    load: async () => (await import("./calibrate.js")).calibrateCommand,
  },
  {
    name: "datasets",
    summary: "list, fetch (pinned, checksummed, cached) and locate the public benchmark sets",
    load: async () => (await import("./datasets.js")).datasetsCommand,
  },
  {
    name: "eval",
    summary: "Measure detection on labelled data and golden sets; gate CI on quality bars",
    load: async () => (await import("./eval.js")).evalCommand,
  },
  {
    name: "evidence",
    summary: "load on-chain records into the evidence store, or checksum a block range",
    load: async () => (await import("./evidence.js")).evidenceCommand,
  },
  {
    name: "mcp",
    summary: "serve the verification tools to MCP clients (stdio or streamable HTTP)",
    load: async () => (await import("./mcp.js")).mcpCommand,
  },
  {
    name: "memory",
    summary: "store grounded claims, review uncertain ones, search the fact memory",
    load: async () => (await import("./memory.js")).memoryCommand,
  },
  {
    name: "serve",
    summary: "run the HTTP API and review UI (and mint API keys)",
    load: async () => (await import("./serve.js")).serveCommand,
  },
];
