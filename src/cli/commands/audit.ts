import { existsSync } from "node:fs";
import path from "node:path";
import { Effect } from "effect";
import { makeAuditLog } from "../../audit/audit-log.js";
import type { AuditAnchor, AuditChainReport } from "../../audit/verify-chain.js";
import { isPostgresUrl, openSqlClient } from "../../storage/open.js";
import { parseCommandArgs } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";

const usage = `veracity audit verify [--db DIR|postgres://URL] [--anchor SEQUENCE:HASH] [--json]

Re-hashes the audit trail (every verification, ingestion decision and review action) and checks its hash
chain: any edited, deleted or reordered entry is reported. Exit 0 intact, 1 tampered, 2 usage error.
--db defaults to .veracity/data (the same store as \`veracity memory\`).

Each run prints the last entry as SEQUENCE:HASH. Keep it somewhere the database's users cannot write and pass
it back with --anchor: the chain must still hold that entry with that hash. Without an anchor, deleting the
newest entries together with the log's head record (or wiping the whole log) cannot be told apart from a
shorter log.`;

const anchorPattern = /^(\d{1,15}):([0-9a-f]{64})$/;

const parseAnchor = (value: string | undefined): AuditAnchor | undefined => {
  if (value === undefined) return undefined;
  const match = anchorPattern.exec(value.trim());
  if (match === null)
    throw new UsageError(`--anchor must be SEQUENCE:HASH (as printed by audit verify), got ${value}`);
  return { sequence: Number(match[1]), entryHash: match[2]! };
};

const lastLine = (report: AuditChainReport): string =>
  report.last === undefined
    ? ""
    : `last entry (keep it as --anchor): ${report.last.sequence}:${report.last.entryHash}\n`;

const describeReport = (report: AuditChainReport): string =>
  report.intact
    ? `audit trail intact: ${report.checked} entries, hash chain verified\n${lastLine(report)}`
    : [
        `audit trail TAMPERED: ${report.problemCount} problems in ${report.checked} entries`,
        ...report.problems.map((problem) => `  ${problem.kind}: ${problem.message}`),
        ...(report.problemCount > report.problems.length
          ? [`  ... and ${report.problemCount - report.problems.length} more`]
          : []),
        "",
      ].join("\n");

const targetOf = (db: string | undefined, io: CliIO): string => {
  const target = db ?? ".veracity/data";
  if (isPostgresUrl(target) || target === "memory://") return target;
  const directory = path.resolve(io.cwd, target);
  // Verifying must not create an empty store where the user expected one.
  if (!existsSync(directory)) throw new UsageError(`--db ${target}: no such store`);
  return directory;
};

const verify = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, {
    db: { type: "string" },
    anchor: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}\n\n${usage}`);
  const anchor = parseAnchor(values.anchor);
  const target = targetOf(values.db, io);
  const report = await Effect.runPromise(
    Effect.acquireUseRelease(
      openSqlClient(target),
      (client) =>
        Effect.flatMap(makeAuditLog(client), (log) =>
          anchor === undefined ? log.verify : log.verifyAgainst(anchor),
        ),
      (client) => Effect.ignore(client.close),
    ),
  );
  io.stdout(values.json ? `${JSON.stringify(report)}\n` : describeReport(report));
  return report.intact ? ExitCode.ok : ExitCode.findings;
};

/** `veracity audit verify`: checks the audit trail's hash chain. */
export const auditCommand: CliCommand = {
  name: "audit",
  summary: "verify the audit trail's hash chain (detects edited, deleted or reordered entries)",
  usage,
  examples: [
    "veracity audit verify",
    "veracity audit verify --db postgres://localhost/veracity --anchor 42:9f2c0a...",
  ],
  run: async (argv, io) => {
    const [subcommand, ...rest] = argv;
    if (subcommand === "--help" || subcommand === "-h" || subcommand === "help") {
      io.stdout(`${usage}\n`);
      return ExitCode.ok;
    }
    if (subcommand !== "verify")
      throw new UsageError(`unknown audit subcommand ${subcommand ?? "(none)"}\n\n${usage}`);
    return verify(rest, io);
  },
};
