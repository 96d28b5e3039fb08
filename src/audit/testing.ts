import { Effect } from "effect";
import type { SqlClientService } from "../storage/sql-client.js";
import { type AuditLogShape, makeAuditLog } from "./audit-log.js";

/** Drops the audit tables, the append function and their migration record, then makes the log anew: an empty chain for a test. */
export const freshAuditLog = (client: SqlClientService): Effect.Effect<AuditLogShape, unknown> =>
  client
    .executeScript(
      "DROP TABLE IF EXISTS veracity_audit_log; DROP TABLE IF EXISTS veracity_audit_head; DROP FUNCTION IF EXISTS veracity_audit_append; DELETE FROM veracity_migrations WHERE namespace = 'audit'",
    )
    .pipe(Effect.ignore, Effect.andThen(makeAuditLog(client)));
