import { Effect } from "effect";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { AuditLogShape } from "./audit-log.js";
import { auditEntryForVerification } from "./entries-for.js";

/**
 * Wraps a verify function so every completed verification is appended to the audit log before its result is
 * returned. An audit write that fails fails the call: a verification that could not be recorded is not
 * handed out as if it had been.
 */
export const withAuditTrail =
  <E, R>(
    verify: (request: VerificationRequest) => Effect.Effect<VerificationResult, E, R>,
    log: AuditLogShape,
    actor: string,
  ) =>
  (request: VerificationRequest) =>
    Effect.tap(verify(request), (result) =>
      log.append(
        auditEntryForVerification({
          actor,
          text: request.text,
          result,
          metadata: { sources: request.sources?.length ?? 0, context: request.context !== undefined },
        }),
      ),
    );
