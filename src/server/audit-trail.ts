import { auditEntryForOperation, auditEntryForVerification } from "../audit/entries-for.js";
import { makeGroupCommitAppender } from "../audit/group-commit.js";
import { recordResultDetails } from "../metrics/record.js";
import type { VeracityMetrics } from "../metrics/registry.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { ServerDeps } from "./deps.js";
import { ApiProblem } from "./middleware/problem/index.js";
import { runEffect } from "./run-effect.js";

/** What the routes record of each operation: the hash-chained audit trail and the result's metrics. */
export interface ServerAuditTrail {
  /**
   * A verification, before its result is sent: recorded or refused. When the entry cannot be written the
   * request fails with 503 `audit-unavailable`, since a verification nobody can audit is not handed out.
   */
  readonly verification: (
    actor: string,
    request: Pick<VerificationRequest, "text" | "sources" | "context">,
    result: VerificationResult,
    route: string,
  ) => Promise<void>;
  /**
   * An operation already committed elsewhere (an ingestion decision, a review action): a failed append is
   * logged as an error, since undoing the committed operation is not possible.
   */
  readonly committed: (
    operation: "ingestion" | "review",
    actor: string,
    input: object,
    output: object,
    extra?: { readonly confidence?: number },
  ) => Promise<void>;
}

/** Records nothing: a server built without an audit log (some tests). */
const noAuditTrail = (metrics: VeracityMetrics | undefined): ServerAuditTrail => ({
  verification: async (_actor, _request, result) => {
    if (metrics !== undefined) recordResultDetails(metrics, result);
  },
  committed: async () => undefined,
});

/** The trail of one server: appends go through group commit, one transaction per batch of requests. */
export const makeServerAuditTrail = (deps: ServerDeps): ServerAuditTrail => {
  const metrics = deps.veracityMetrics;
  if (deps.auditLog === undefined) return noAuditTrail(metrics);
  const appender = makeGroupCommitAppender(deps.auditLog, runEffect);
  return {
    verification: async (actor, request, result, route) => {
      if (metrics !== undefined) recordResultDetails(metrics, result);
      try {
        await appender.append(
          auditEntryForVerification({
            actor,
            text: request.text,
            result,
            metadata: {
              route,
              sources: request.sources?.length ?? 0,
              context: request.context !== undefined,
            },
          }),
        );
      } catch (error) {
        deps.logger.error({ error: String((error as Error).message ?? error) }, "audit append failed");
        throw new ApiProblem(
          503,
          "audit-unavailable",
          "the verification could not be recorded in the audit trail; try again",
        );
      }
    },
    committed: async (operation, actor, input, output, extra = {}) => {
      try {
        await appender.append(auditEntryForOperation({ operation, actor, input, output, ...extra }));
      } catch (error) {
        deps.logger.error(
          { error: String((error as Error).message ?? error), operation },
          "audit append failed",
        );
      }
    },
  };
};
