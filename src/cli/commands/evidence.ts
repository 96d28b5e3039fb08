import path from "node:path";
import { Cause, Effect, Exit } from "effect";
import { blockRangeChecksum } from "../../checks/citations/integrity/block-range-checksum.js";
import {
  checkCrossStoreConsistency,
  maxConsistencySample,
} from "../../checks/citations/integrity/cross-store-consistency.js";
import { type EvidenceStore, openEvidenceStore } from "../../checks/citations/store/evidence-store.js";
import { redactSecrets } from "../../storage/errors.js";
import { parseCommandArgs } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";

const usage = `veracity evidence import ethereum <dir> [--db URL|DIR]
veracity evidence checksum --from <block> --to <block> [--db URL|DIR] [--json]
veracity evidence consistency --against URL|DIR [--sample N] [--db URL|DIR] [--json]

Loads an ethereum-etl export (blocks, transactions, token_transfers, logs, receipts, traces, contracts, tokens
as JSONL or CSV) into the evidence store the citations layer checks against, prints a checksum of a block range
to compare two stores, or samples transactions (default 1000) and checks another store holds the same records
(exit 1 when any differ). --db is a postgres:// URL or a PGlite directory (default: $VERACITY_EVIDENCE_DB or .veracity/evidence).`;

const databaseOf = (db: string | undefined, io: CliIO): string => {
  const target = db ?? io.env.VERACITY_EVIDENCE_DB ?? ".veracity/evidence";
  return /^postgres(?:ql)?:\/\//i.test(target) || target === "memory://"
    ? target
    : path.resolve(io.cwd, target);
};

/** Runs `work` on the opened store and closes it; a failure is rethrown as the typed error itself. */
const withStore = async <A>(
  target: string,
  work: (store: EvidenceStore) => Effect.Effect<A, unknown>,
): Promise<A> => {
  const exit = await Effect.runPromiseExit(
    Effect.acquireUseRelease(openEvidenceStore(target), work, (store) => Effect.ignore(store.close)),
  );
  if (Exit.isSuccess(exit)) return exit.value;
  throw Cause.squash(exit.cause);
};

const messageOf = (error: unknown): string => {
  const failure = error as { message?: unknown; operation?: unknown };
  return redactSecrets(typeof failure.message === "string" ? failure.message : String(error));
};

const importCommand = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, { db: { type: "string" } });
  const [format, directory, ...rest] = positionals;
  if (format !== "ethereum") throw new UsageError('only "evidence import ethereum <dir>" is supported');
  if (directory === undefined || rest.length > 0) throw new UsageError("give exactly one export directory");
  const target = databaseOf(values.db, io);
  const summary = await withStore(target, (store) =>
    store.importEthereumEtl(path.resolve(io.cwd, directory)),
  );
  for (const [table, counts] of Object.entries(summary.tables))
    io.stdout(`${table}: ${counts.read} read, ${counts.rejected} rejected\n`);
  for (const problem of summary.problems) io.stderr(`rejected: ${problem}\n`);
  io.stdout(`evidence store: ${redactSecrets(target)}\n`);
  const read = Object.values(summary.tables).reduce((sum, counts) => sum + counts.read, 0);
  const rejected = Object.values(summary.tables).reduce((sum, counts) => sum + counts.rejected, 0);
  return read > 0 && rejected === read ? ExitCode.usage : ExitCode.ok;
};

const checksumCommand = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, {
    db: { type: "string" },
    from: { type: "string" },
    to: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 0) throw new UsageError("checksum takes no positional arguments");
  if (values.from === undefined || values.to === undefined)
    throw new UsageError("--from and --to are required");
  const from = values.from;
  const to = values.to;
  const checksum = await withStore(databaseOf(values.db, io), (store) =>
    blockRangeChecksum(store.sql, from, to),
  );
  if (values.json) io.stdout(`${JSON.stringify(checksum)}\n`);
  else
    io.stdout(
      `blocks ${checksum.fromBlock}..${checksum.toBlock}: ${checksum.transactionCount} transactions, ` +
        `time ${checksum.minTimestamp ?? "-"}..${checksum.maxTimestamp ?? "-"}, checksum ${checksum.checksum}\n`,
    );
  return ExitCode.ok;
};

const consistencyCommand = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, {
    db: { type: "string" },
    against: { type: "string" },
    sample: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 0) throw new UsageError("consistency takes no positional arguments");
  if (values.against === undefined) throw new UsageError("--against <store> is required");
  const sample = values.sample === undefined ? 1000 : Number(values.sample);
  if (!Number.isSafeInteger(sample) || sample < 1 || sample > maxConsistencySample)
    throw new UsageError(`--sample must be a whole number from 1 to ${maxConsistencySample}`);
  const against = databaseOf(values.against, io);
  const report = await withStore(databaseOf(values.db, io), (source) =>
    Effect.acquireUseRelease(
      openEvidenceStore(against),
      (target) => checkCrossStoreConsistency(source, target, sample),
      (target) => Effect.ignore(target.close),
    ),
  );
  if (values.json) io.stdout(`${JSON.stringify(report)}\n`);
  else {
    io.stdout(
      `${report.totalChecked} transactions sampled: ${report.missing} missing, ${report.mismatched} differing, ` +
        `consistency ${report.consistencyScore.toFixed(4)}\n`,
    );
    for (const mismatch of report.mismatches) io.stdout(`  ${mismatch.hash}: ${mismatch.problem}\n`);
  }
  return report.missing + report.mismatched === 0 ? ExitCode.ok : ExitCode.findings;
};

/** `veracity evidence`: manage the evidence store of the citations layer. */
export const evidenceCommand: CliCommand = {
  name: "evidence",
  summary: "load on-chain records into the evidence store, or checksum a block range",
  usage,
  examples: [
    "veracity evidence import ethereum ./export --db .veracity/evidence",
    "veracity evidence checksum --from 19000000 --to 19000100 --json",
  ],
  run: async (argv, io) => {
    const [subcommand, ...rest] = argv;
    try {
      if (subcommand === "import") return await importCommand(rest, io);
      if (subcommand === "checksum") return await checksumCommand(rest, io);
      if (subcommand === "consistency") return await consistencyCommand(rest, io);
      throw new UsageError(`unknown evidence subcommand ${subcommand ?? "(none)"}\n${usage}`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.stderr(`veracity evidence: ${messageOf(error)}\n`);
      return ExitCode.usage;
    }
  },
};
