export { AuditLog, type AuditLogShape, makeAuditLog } from "./audit-log.js";
export { withAuditTrail } from "./audited-verify.js";
export {
  auditEntryForIngestion,
  auditEntryForOperation,
  auditEntryForReview,
  auditEntryForVerification,
  type VerificationSummary,
  verificationOutputHash,
} from "./entries-for.js";
export { AuditAppend, type AuditEntry, AuditOperation, genesisHash } from "./entry.js";
export { AuditBacklogError, type GroupCommitAppender, makeGroupCommitAppender } from "./group-commit.js";
export { canonicalJson, hashAuditEntry, sha256Hex } from "./hash.js";
export { auditMigrations } from "./migrations.js";
export {
  type AuditAnchor,
  AuditChainChecker,
  type AuditChainReport,
  type AuditHead,
  type AuditProblem,
  type AuditProblemKind,
  verifyAuditChain,
} from "./verify-chain.js";
