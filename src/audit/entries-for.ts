import type { LayerResult } from "../model/layer-result.js";
import type { VerificationResult } from "../model/result.js";
import type { AuditAppend } from "./entry.js";
import { canonicalJson, sha256Hex } from "./hash.js";

const countOf = (details: Readonly<Record<string, unknown>>, key: string): number => {
  const value = details[key];
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
};

/**
 * A verification result without its claim findings: what the audit entry and the metrics read once the output
 * hash is known (a worker thread sends this rather than the whole result).
 */
export type VerificationSummary = Omit<VerificationResult, "claims" | "layersRun"> & {
  readonly layersRun: readonly Omit<LayerResult, "claims">[];
};

/** The hash of a verification's verdict as the audit trail records it: canonical JSON of what it decided. */
export const verificationOutputHash = (
  result: Pick<VerificationResult, "passed" | "overallConfidence" | "claims" | "mitigations">,
): string =>
  sha256Hex(
    canonicalJson({
      passed: result.passed,
      overallConfidence: result.overallConfidence,
      claims: result.claims,
      mitigations: result.mitigations,
    }),
  );

/** The citation counts a verification reports through its citations layer (0 and 0 when it did not run). */
const citationCounts = (result: VerificationSummary) => {
  const citations = result.layersRun.find((layer) => layer.layer === "citations");
  if (citations === undefined) return { citationsVerified: 0, citationsFailed: 0 };
  const total = countOf(citations.details, "citations");
  const verified = countOf(citations.details, "verified");
  return { citationsVerified: verified, citationsFailed: Math.max(0, total - verified) };
};

/**
 * The audit entry of one verification: hashes of the checked text and of the verdict, never the text itself.
 * Give the whole result, or its summary with the `verificationOutputHash` computed where the result was.
 */
export const auditEntryForVerification = (
  input: {
    readonly actor: string;
    readonly text: string;
    readonly metadata?: Readonly<Record<string, unknown>>;
  } & (
    | { readonly result: VerificationResult; readonly outputHash?: undefined }
    | { readonly result: VerificationSummary; readonly outputHash: string }
  ),
): AuditAppend => ({
  operation: "verification",
  actor: input.actor,
  inputHash: sha256Hex(input.text),
  outputHash: input.outputHash ?? verificationOutputHash(input.result as VerificationResult),
  ...citationCounts(input.result),
  confidence: input.result.overallConfidence,
  executionTimeMs: input.result.totalLatencyMs,
  metadata: {
    riskLevel: input.result.riskLevel,
    passed: input.result.passed,
    layers: input.result.layersRun.map((layer) => layer.layer),
    ...input.metadata,
  },
});

/**
 * The audit entry of any other operation (an ingestion decision "ingestion", a review action "review"...):
 * input and output are hashed as canonical JSON.
 */
export const auditEntryForOperation = (input: {
  readonly operation: string;
  readonly actor: string;
  readonly input: unknown;
  readonly output: unknown;
  readonly confidence?: number;
  readonly citationsVerified?: number;
  readonly citationsFailed?: number;
  readonly executionTimeMs?: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
}): AuditAppend => ({
  operation: input.operation,
  actor: input.actor,
  inputHash: sha256Hex(canonicalJson(input.input)),
  outputHash: sha256Hex(canonicalJson(input.output)),
  citationsVerified: input.citationsVerified ?? 0,
  citationsFailed: input.citationsFailed ?? 0,
  confidence: input.confidence ?? null,
  executionTimeMs: input.executionTimeMs ?? 0,
  metadata: input.metadata ?? {},
});

/** The audit entry of a memory-gate ingestion: the candidate as submitted and the gate's outcome. */
export const auditEntryForIngestion = (actor: string, candidate: unknown, outcome: unknown): AuditAppend =>
  auditEntryForOperation({ operation: "ingestion", actor, input: candidate, output: outcome });

/** The audit entry of a review decision: which item, approved (the stored memory) or rejected (the reason). */
export const auditEntryForReview = (
  reviewer: string,
  queueId: string,
  decision:
    | { readonly approve: { readonly memoryId: string } }
    | { readonly reject: { readonly reason: string } },
): AuditAppend =>
  "approve" in decision
    ? auditEntryForOperation({
        operation: "review",
        actor: reviewer,
        input: { queueId, decision: "approve" },
        output: { memoryId: decision.approve.memoryId },
      })
    : auditEntryForOperation({
        operation: "review",
        actor: reviewer,
        input: { queueId, decision: "reject" },
        output: { reason: decision.reject.reason },
      });
