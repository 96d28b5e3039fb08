import type { Logger } from "pino";
import type { AuditLogShape } from "../audit/audit-log.js";
import { auditEntryForVerification, type VerificationSummary } from "../audit/entries-for.js";
import type { AuditAppend } from "../audit/entry.js";
import { makeGroupCommitAppender } from "../audit/group-commit.js";
import { recordResultDetails } from "../metrics/record.js";
import type { VeracityMetrics } from "../metrics/registry.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import { ApiProblem } from "./middleware/problem/index.js";
import { runEffect } from "./run-effect.js";

/** A verification as the routes hold it: the whole result, or its summary with the output hash (a prepared answer). */
export type RecordedVerification =
  | { readonly result: VerificationResult }
  | { readonly summary: VerificationSummary; readonly outputHash: string };

/** What the routes record of each operation: the hash-chained audit trail and the result's metrics. */
export interface ServerAuditTrail {
  /**
   * A verification, before its result is sent: recorded or refused. When the entry cannot be written the
   * request fails with 503 `audit-unavailable`, since a verification nobody can audit is not handed out.
   */
  readonly verification: (
    actor: string,
    request: Pick<VerificationRequest, "text" | "sources" | "context">,
    verification: RecordedVerification,
    route: string,
  ) => Promise<void>;
  /**
   * An operation already committed elsewhere (an ingestion decision, a review action): a failed append is
   * logged as an error, since undoing the committed operation is not possible.
   */
  readonly committed: (entry: AuditAppend) => Promise<void>;
}

/**
 * Under load, the trail starts a transaction at most every 5 ms (an idle server writes at once). On the embedded
 * database, a transaction of one entry cost about 1 ms of the main thread and one of eight about 1.6 ms; answers
 * came back from the workers one at a time, so without the window most transactions held a single entry. With
 * it, the load benchmark's server spent about a fifth less CPU per request (docs/bench/server.md).
 */
const auditWindowMs = 5;

/**
 * The trail of one server: appends go through group commit, one transaction per batch of requests. Without an
 * audit log (some tests) only the metrics are recorded.
 */
/** What the audit trail needs of the server: its audit log, logger and metrics. */
export interface AuditTrailDeps {
  readonly auditLog?: AuditLogShape;
  readonly logger: Logger;
  readonly veracityMetrics?: VeracityMetrics;
}

export const makeServerAuditTrail = (deps: AuditTrailDeps): ServerAuditTrail => {
  const metrics = deps.veracityMetrics;
  const appender =
    deps.auditLog === undefined
      ? undefined
      : makeGroupCommitAppender(deps.auditLog, runEffect, { windowMs: auditWindowMs });
  const logFailure = (error: unknown, operation: string) =>
    deps.logger.error({ error: String((error as Error).message ?? error), operation }, "audit append failed");
  return {
    verification: async (actor, request, verification, route) => {
      const summary = "result" in verification ? verification.result : verification.summary;
      if (metrics !== undefined) recordResultDetails(metrics, summary);
      if (appender === undefined) return;
      try {
        await appender.append(
          auditEntryForVerification({
            actor,
            text: request.text,
            ...("result" in verification
              ? { result: verification.result }
              : { result: verification.summary, outputHash: verification.outputHash }),
            metadata: {
              route,
              sources: request.sources?.length ?? 0,
              context: request.context !== undefined,
            },
          }),
        );
      } catch (error) {
        logFailure(error, "verification");
        throw new ApiProblem(
          503,
          "audit-unavailable",
          "the verification could not be recorded in the audit trail; try again",
        );
      }
    },
    committed: async (entry) => {
      if (appender === undefined) return;
      await appender.append(entry).catch((error: unknown) => logFailure(error, entry.operation));
    },
  };
};
