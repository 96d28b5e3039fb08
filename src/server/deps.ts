import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { AuditLogShape } from "../audit/audit-log.js";
import type { CalibrationOutcomeStore } from "../calibration/outcome-store.js";
import type { ValidateInput } from "../checks/numbers/validate/validate-numbers.js";
import type { Verifier } from "../facade/create-verifier.js";
import type { MemoryGateClient } from "../memory/gate/create-memory-gate.js";
import type { VeracityMetrics } from "../metrics/registry.js";
import { type ConnectionLimits, defaultConnectionLimits } from "../model/connection-limits.js";
import type { SqlClientService } from "../storage/sql-client.js";
import type { OffThreadJsonReader } from "../text/json-text.js";
import type { ServerAuditTrail } from "./audit-trail.js";
import { defaultRateLimit, type RateLimit } from "./middleware/rate-limit/index.js";
import type { Recalibration } from "./recalibration.js";
import type { SourceStore } from "./sources/source-store.js";

/**
 * The server's limits. Those it shares with `veracity mcp --http` (`ConnectionLimits`) default to 256 MiB of
 * request bodies held at once (a request that does not fit is answered 503 `server-busy` before its body is
 * read), 64 MiB of them for one key's requests and 64 requests in flight per key (429 `key-busy` past
 * either), 10,000 open connections and 10 s to send a request's headers.
 */
export interface ServerLimits extends ConnectionLimits {
  /** Largest request body accepted, in bytes (default 2 MiB). */
  readonly maxBodyBytes: number;
  /** Longest a client waits for an answer (default 30 s). */
  readonly requestTimeoutMs: number;
  readonly rateLimit: RateLimit;
}

export const defaultServerLimits: ServerLimits = {
  maxBodyBytes: 2 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  rateLimit: defaultRateLimit,
  ...defaultConnectionLimits,
};

/** Everything the HTTP app uses, injected so tests pass real stores and fakes alike. */
export interface ServerDeps {
  /** Keys and rate-limit windows live here (shared by every instance on the same database). */
  readonly sql: SqlClientService;
  readonly memory: MemoryGateClient;
  /** `/v1/verify`: every configured layer (model-backed layers when a model is configured). */
  readonly verifier: Verifier;
  /** `/v1/check`: the offline evidence layers only. */
  readonly checker: Verifier;
  /**
   * `/v1/numbers/validate`, answered as JSON text: the worker pool's (off the event loop, with a deadline that
   * stops the work). Default: in the server's own thread.
   */
  readonly validateNumbersJson?: (input: ValidateInput) => Promise<string>;
  /**
   * Where JSON bodies of `offThreadFromBytes` or more are decoded and parsed: the worker pool's (its large-call
   * worker), so a 10 MB body holds the event loop about half as long. Default: in the server's own thread.
   */
  readonly readJsonOffThread?: OffThreadJsonReader;
  readonly logger: Logger;
  readonly limits?: Partial<ServerLimits>;
  /** The registry `/metrics` serves (e.g. `makeVeracityMetrics().registry`); the HTTP metrics are added to it. */
  readonly metricsRegistry?: Registry;
  /**
   * The tamper-evident audit log: every verification (`/v1/verify`, `/v1/check`, the playground), ingestion
   * decision and review action is appended; `/v1/audit/verify` checks the chain.
   */
  readonly auditLog?: AuditLogShape;
  /** Built by `createServerApp` from `auditLog` (group commit); pass one only to replace it. */
  readonly auditTrail?: ServerAuditTrail;
  /** Per-result metrics (layer latency, citations by type and reason, uncited claims) are recorded here. */
  readonly veracityMetrics?: VeracityMetrics;
  /** Called before each `/metrics` scrape: brings counters read from elsewhere (model usage) up to date. */
  readonly refreshMetrics?: () => Promise<void>;
  /** False once shutdown has begun: `/readyz` answers 503 so the load balancer stops sending traffic. */
  readonly isAccepting?: () => boolean;
  /** Periodic recalibration: refits from reviewed outcomes; without it the calibration routes answer 503. */
  readonly recalibration?: Recalibration;
  /** Sources kept per user (`POST /v1/sources`) that requests name by hash; without it `sourceRefs` is a 503. */
  readonly sources?: SourceStore;
  /** Where `POST /v1/calibration/outcomes` records reviewed outcomes. */
  readonly calibrationOutcomes?: CalibrationOutcomeStore;
  readonly version?: string;
}
