import { randomUUID } from "node:crypto";
import { Context, Effect, Schema } from "effect";
import { InputError } from "../model/errors.js";
import type { StorageError } from "../storage/errors.js";
import { runMigrations } from "../storage/migrations.js";
import type { SqlClientService, SqlExecutor } from "../storage/sql-client.js";
import { AuditAppend, type AuditEntry, genesisHash, maxMetadataBytes } from "./entry.js";
import { canonicalJson, hashAuditEntry } from "./hash.js";
import { auditMigrationNamespace, auditMigrations } from "./migrations.js";
import {
  type AuditAnchor,
  AuditChainChecker,
  type AuditChainReport,
  type AuditHead,
} from "./verify-chain.js";

export interface AuditLogShape {
  /** Appends one entry at the end of the chain (serialized: concurrent appends queue up). */
  readonly append: (input: AuditAppend) => Effect.Effect<AuditEntry, StorageError | InputError>;
  /**
   * Appends several entries in order in one transaction (group commit): all are stored or none. Every input
   * is decoded first, so one invalid entry fails the call before anything is written.
   */
  readonly appendMany: (
    inputs: readonly AuditAppend[],
  ) => Effect.Effect<readonly AuditEntry[], StorageError | InputError>;
  /** Entries in chain order after `afterSequence`, at most `limit` (1..1000). */
  readonly entries: (options?: {
    readonly afterSequence?: number;
    readonly limit?: number;
  }) => Effect.Effect<readonly AuditEntry[], StorageError>;
  /** Re-hashes the whole chain page by page and reports every edited, missing or reordered entry. */
  readonly verify: Effect.Effect<AuditChainReport, StorageError>;
  /** `verify`, and the chain must still hold the anchor's entry with its hash (see `AuditAnchor`). */
  readonly verifyAgainst: (anchor: AuditAnchor) => Effect.Effect<AuditChainReport, StorageError>;
}

export class AuditLog extends Context.Tag("veracity/AuditLog")<AuditLog, AuditLogShape>() {}

interface AuditRow {
  readonly sequence: string | number;
  readonly entry_id: string;
  readonly recorded_at: string;
  readonly operation: string;
  readonly actor: string;
  readonly input_hash: string;
  readonly output_hash: string;
  readonly citations_verified: number;
  readonly citations_failed: number;
  readonly confidence: number | null;
  readonly execution_time_ms: number;
  readonly metadata_json: string;
  readonly previous_hash: string;
  readonly entry_hash: string;
}

const fromRow = (row: AuditRow): AuditEntry => ({
  sequence: Number(row.sequence),
  entryId: row.entry_id,
  recordedAt: row.recorded_at,
  operation: row.operation,
  actor: row.actor,
  inputHash: row.input_hash,
  outputHash: row.output_hash,
  citationsVerified: row.citations_verified,
  citationsFailed: row.citations_failed,
  confidence: row.confidence,
  executionTimeMs: row.execution_time_ms,
  metadataJson: row.metadata_json,
  previousHash: row.previous_hash,
  entryHash: row.entry_hash,
});

const pageSize = 1000;
const columns =
  "sequence, entry_id, recorded_at, operation, actor, input_hash, output_hash, citations_verified, citations_failed, confidence, execution_time_ms, metadata_json, previous_hash, entry_hash";

/** An append that passed the schema, with its metadata already in canonical JSON. */
interface DecodedAppend {
  readonly append: AuditAppend;
  readonly metadataJson: string;
}

const decodeAppend = (input: AuditAppend): Effect.Effect<DecodedAppend, InputError> =>
  Effect.gen(function* () {
    const append = yield* Schema.decodeUnknown(AuditAppend)(input).pipe(
      Effect.mapError(
        (error) => new InputError({ message: `invalid audit entry: ${error.message}`, code: "audit-entry" }),
      ),
    );
    const metadataJson = canonicalJson(append.metadata);
    if (Buffer.byteLength(metadataJson, "utf8") > maxMetadataBytes)
      return yield* Effect.fail(
        new InputError({
          message: `audit metadata is larger than ${maxMetadataBytes} bytes`,
          code: "audit-entry",
        }),
      );
    return { append, metadataJson };
  });

interface HeadRow {
  readonly sequence: string | number;
  readonly entry_hash: string;
}

const headFromRow = (row: HeadRow | undefined): AuditHead | undefined =>
  row === undefined ? undefined : { sequence: Number(row.sequence), entryHash: row.entry_hash };

/** Most entries written by one INSERT (14 parameters each, far below PostgreSQL's 65,535). */
const maxRowsPerInsert = 500;

/**
 * Appends `decoded` after the chain's head in one transaction: the head is read (and locked) once, the hashes
 * are chained in memory, the rows go in with multi-row INSERTs and the head is moved once.
 */
const insertAfterHead = (tx: SqlExecutor, decoded: readonly DecodedAppend[], now: () => Date) =>
  Effect.gen(function* () {
    const [head] = yield* tx.query<HeadRow>(
      "SELECT sequence, entry_hash FROM veracity_audit_head WHERE id = 1 FOR UPDATE",
    );
    const stored = chainAfter(headFromRow(head), decoded, now);
    for (let offset = 0; offset < stored.length; offset += maxRowsPerInsert) {
      const rows = stored.slice(offset, offset + maxRowsPerInsert);
      yield* tx.query(
        `INSERT INTO veracity_audit_log (${columns}) VALUES ${valuesList(rows.length)}`,
        rows.flatMap(rowValues),
      );
    }
    const last = stored.at(-1) as AuditEntry;
    yield* tx.query(
      `INSERT INTO veracity_audit_head (id, sequence, entry_hash) VALUES (1, $1, $2)
       ON CONFLICT (id) DO UPDATE SET sequence = EXCLUDED.sequence, entry_hash = EXCLUDED.entry_hash`,
      [last.sequence, last.entryHash],
    );
    return stored;
  });

/** How many columns an entry has: the length of each VALUES row and the number of arrays the fast append takes. */
const columnCount = columns.split(", ").length;

/** The VALUES rows of `rowCount` entries, numbered from `$1` (`($1, $2, ...), ...`). */
const valuesList = (rowCount: number): string =>
  Array.from(
    { length: rowCount },
    (_, row) =>
      `(${Array.from({ length: columnCount }, (_, column) => `$${1 + row * columnCount + column}`).join(", ")})`,
  ).join(", ");

/** Hashes `decoded` into entries chained after `head`, in order. */
const chainAfter = (
  head: AuditHead | undefined,
  decoded: readonly DecodedAppend[],
  now: () => Date,
): AuditEntry[] => {
  let sequence = head?.sequence ?? 0;
  let previousHash = head?.entryHash ?? genesisHash;
  const stored: AuditEntry[] = [];
  for (const { append, metadataJson } of decoded) {
    sequence += 1;
    const unsigned = {
      sequence,
      entryId: randomUUID(),
      recordedAt: now().toISOString(),
      operation: append.operation,
      actor: append.actor,
      inputHash: append.inputHash,
      outputHash: append.outputHash,
      citationsVerified: append.citationsVerified,
      citationsFailed: append.citationsFailed,
      confidence: append.confidence,
      executionTimeMs: append.executionTimeMs,
      metadataJson,
      previousHash,
    };
    const entry: AuditEntry = { ...unsigned, entryHash: hashAuditEntry(unsigned) };
    stored.push(entry);
    previousHash = entry.entryHash;
  }
  return stored;
};

const rowValues = (entry: AuditEntry) => [
  entry.sequence,
  entry.entryId,
  entry.recordedAt,
  entry.operation,
  entry.actor,
  entry.inputHash,
  entry.outputHash,
  entry.citationsVerified,
  entry.citationsFailed,
  entry.confidence,
  entry.executionTimeMs,
  entry.metadataJson,
  entry.previousHash,
  entry.entryHash,
];

/** The call of the fast append: the head it expects, then one array per column, in the order of `columns`. */
const columnArrays = Array.from({ length: columnCount }, (_, column) => `$${column + 3}`).join(", ");
const appendCall = `SELECT veracity_audit_append($1, $2, ${columnArrays}) AS appended`;

/**
 * The fast append, when this log already knows the chain's head (it wrote the last entries): one call of
 * `veracity_audit_append` (audit migration 2) moves the head only if it is still where this log left it, and
 * inserts the rows only if the head moved, so both happen or neither does. Returns undefined when the head was
 * elsewhere (another writer appended, or the head was edited): the caller then takes the locked path, which
 * reads the head. A call instead of a five-statement transaction per batch was most of a busy server's
 * database time.
 */
const appendAfterKnownHead = (
  client: SqlClientService,
  head: AuditHead,
  decoded: readonly DecodedAppend[],
  now: () => Date,
): Effect.Effect<AuditEntry[] | undefined, StorageError> =>
  Effect.gen(function* () {
    const stored = chainAfter(head, decoded, now);
    const rows = stored.map(rowValues);
    const columnsOfRows = Array.from({ length: columnCount }, (_, column) =>
      rows.map((row) => row[column] ?? null),
    );
    const [appended] = yield* client.query<{ appended: number | string }>(appendCall, [
      head.sequence,
      head.entryHash,
      ...columnsOfRows,
    ]);
    return Number(appended?.appended ?? 0) === stored.length ? stored : undefined;
  });

/** The audit log over a SQL client (PGlite or PostgreSQL); runs its migrations first. */
export const makeAuditLog = (
  client: SqlClientService,
  options: { readonly now?: () => Date } = {},
): Effect.Effect<AuditLogShape, StorageError> =>
  Effect.gen(function* () {
    yield* runMigrations(client, auditMigrationNamespace, auditMigrations);
    const now = options.now ?? (() => new Date());
    const entries: AuditLogShape["entries"] = ({ afterSequence = 0, limit = pageSize } = {}) =>
      client
        .query<AuditRow>(
          `SELECT ${columns} FROM veracity_audit_log WHERE sequence > $1 ORDER BY sequence LIMIT $2`,
          [afterSequence, Math.max(1, Math.min(pageSize, Math.floor(limit)))],
        )
        .pipe(Effect.map((rows) => rows.map(fromRow)));
    // The head as this log last wrote it; a hint only: every fast append checks it in the same statement.
    let knownHead: AuditHead | undefined;
    // After a fast append the head only moves forward (a slower concurrent append may finish later); after a
    // locked one it is where this log left it, even behind the hint (a head moved back by an edit).
    const remember = (stored: readonly AuditEntry[], locked: boolean) => {
      const last = stored.at(-1);
      if (last !== undefined && (locked || knownHead === undefined || last.sequence > knownHead.sequence))
        knownHead = { sequence: last.sequence, entryHash: last.entryHash };
    };
    const appendMany: AuditLogShape["appendMany"] = (inputs) =>
      Effect.gen(function* () {
        if (inputs.length === 0) return [];
        const decoded = yield* Effect.forEach(inputs, decodeAppend);
        if (knownHead !== undefined && decoded.length <= maxRowsPerInsert) {
          const fast = yield* appendAfterKnownHead(client, knownHead, decoded, now);
          if (fast !== undefined) {
            remember(fast, false);
            return fast;
          }
        }
        const stored = yield* client.transaction((tx) =>
          Effect.gen(function* () {
            // The head row may not exist yet, and FOR UPDATE cannot lock a missing row: lock the log itself.
            if (client.dialect === "postgres")
              yield* tx.query("LOCK TABLE veracity_audit_head IN SHARE ROW EXCLUSIVE MODE");
            return yield* insertAfterHead(tx, decoded, now);
          }),
        );
        remember(stored, true);
        return stored;
      });
    const appendEntry: AuditLogShape["append"] = (input) =>
      appendMany([input]).pipe(Effect.map((stored) => stored[0] as AuditEntry));
    const verifyChain = (anchor: AuditAnchor | undefined) =>
      Effect.gen(function* () {
        const checker = new AuditChainChecker(anchor);
        let after = 0;
        for (;;) {
          const page = yield* entries({ afterSequence: after, limit: pageSize });
          for (const entry of page) checker.add(entry);
          const last = page.at(-1);
          if (last === undefined || page.length < pageSize) break;
          after = last.sequence;
        }
        const [head] = yield* client.query<HeadRow>(
          "SELECT sequence, entry_hash FROM veracity_audit_head WHERE id = 1",
        );
        return checker.finish(headFromRow(head));
      });
    return {
      append: appendEntry,
      appendMany,
      entries,
      verify: verifyChain(undefined),
      verifyAgainst: verifyChain,
    };
  });
