import type { CalibrationModels } from "../../calibration/calibrator.js";
import type { RepositoryCitations } from "../../checks/citations/verifiers/repository-citations.js";
import type { ValidateInput } from "../../checks/numbers/validate/validate-numbers.js";
import { errorMessage } from "../../model/error-message.js";
import {
  CalibrationError,
  ConfigError,
  InputError,
  InsufficientSourcesError,
  VerificationError,
  VerificationTimeoutError,
} from "../../model/errors.js";
import type { LayerName } from "../../model/layer-name.js";
import type { VerificationRequest } from "../../model/request.js";
import type { VerificationSettings } from "../../verification/config.js";
import type { VerificationEvent } from "../../verification/events.js";
import type { AnswerOptions, PreparedAnswer } from "../prepared-answer.js";

/** What a worker builds its verifier from: plain data, since it crosses a thread boundary. */
export interface WorkerVerifierConfig {
  /** Settings that replace the defaults in every worker's verifier, as `VerifierConfig.settings` does. */
  readonly settings?: Partial<VerificationSettings>;
  /** Platt models per layer, applied in every worker's verifier. */
  readonly calibration?: CalibrationModels;
  /**
   * A repository's citations (its commits, decision records, issue tracker): every worker's verifier then runs
   * the citations layer on them after the offline evidence layers, as `buildVerifier` does with `repository`.
   */
  readonly citations?: RepositoryCitations;
}

/** What a call tells its worker about kept texts: each pair is `[place, number]` (see `kept`). */
export interface KeptSources {
  /**
   * Texts sent whole, to be kept under these numbers (applied first): `[place, number]`, the place a source's
   * index in `sources`, or `contextPlace` for the request's `context`.
   */
  readonly kept: readonly (readonly [number, number])[];
  /** Texts sent empty, to be filled in from the texts kept under these numbers: `[place, number]`. */
  readonly named: readonly (readonly [number, number])[];
  /** Texts to drop, once the named ones are filled in (never one this call names or keeps). */
  readonly dropped: readonly number[];
}

/** The place of a request's `context` in `KeptSources`, beside the sources' indices. */
export const contextPlace = -1;

/**
 * Which of its verifiers a worker runs a call in. A worker built with `citations` holds two: the configured one
 * (the offline evidence layers and the citations layer) and one with the offline evidence layers only, for
 * callers that promise no more than those (a server's `/v1/check` beside its `/v1/verify`). Without
 * `citations` the two are one verifier.
 */
export interface VerifierChoice {
  /** Run in the verifier of the offline evidence layers only. */
  readonly evidenceLayersOnly?: true;
}

/**
 * Whose call it is (`currentQueueOwner` where the pool was called): a worker runs its verification calls one at
 * a time, the owners in turn (verify-worker.ts). The pool sets it as it sends each call.
 */
export interface CallOwner {
  readonly owner?: string;
}

/** A call from the pool to a worker. */
export type WorkerCall = CallOwner &
  /** Each verification may name large sources the worker kept from earlier calls (kept-sources.ts). */
  (
    | ({
        readonly id: number;
        readonly op: "verify";
        readonly request: VerificationRequest;
        readonly keptSources?: KeptSources;
      } & VerifierChoice)
    /** A verification answered as a lean result (`leanResult`): half as much to copy back. */
    | ({
        readonly id: number;
        readonly op: "verifyLean";
        readonly request: VerificationRequest;
        readonly keptSources?: KeptSources;
      } & VerifierChoice)
    | ({
        readonly id: number;
        readonly op: "verifyPrepared";
        readonly request: VerificationRequest;
        readonly options: AnswerOptions;
        readonly keptSources?: KeptSources;
      } & VerifierChoice)
    | ({
        readonly id: number;
        readonly op: "runLayer";
        readonly layer: LayerName;
        readonly text: string;
        readonly context?: string;
        readonly sources?: readonly string[];
      } & VerifierChoice)
    | ({
        readonly id: number;
        readonly op: "assessRisk";
        readonly text: string;
        readonly context?: string;
      } & VerifierChoice)
    /** Numeric validation; the worker answers the result's JSON text, so the caller's thread never serializes it. */
    | { readonly id: number; readonly op: "validateNumbersJson"; readonly input: ValidateInput }
    /** A JSON text given as UTF-8 bytes, read as `readJsonText` reads it (a large request body, off the caller's thread). */
    | { readonly id: number; readonly op: "readJson"; readonly bytes: Uint8Array; readonly maxDepth: number }
    /** New Platt models for some layers, for every verification the worker starts afterwards. */
    | { readonly id: number; readonly op: "updateCalibration"; readonly models: CalibrationModels }
    /** Drops the worker's verifier, with its caches, for a new one built the same way (an idle large-lane worker). */
    | { readonly id: number; readonly op: "release" }
    /** What the worker's caches did since it started, its released verifiers' included, and what they hold now. */
    | { readonly id: number; readonly op: "cacheStats" }
    /** Made-up verifications in a verifier of the warm-up's own (`warmUpVerifier`), answered by its report. */
    | {
        readonly id: number;
        readonly op: "warmUp";
        readonly maxVerifications?: number;
        readonly maxMs?: number;
      }
    /** Ends the worker's warm-ups under way before their next made-up verification. */
    | { readonly id: number; readonly op: "stopWarmUp" }
  );

/** A call as the pool builds it; the slot gives it its id when it is sent. */
export type CallBody = WorkerCall extends infer Call
  ? Call extends WorkerCall
    ? Omit<Call, "id">
    : never
  : never;

/**
 * The buffers a worker can move to the pool's thread with a call's answer instead of copying them: a prepared
 * answer's body. Only a buffer the body owns whole (as `TextEncoder` makes it) is moved; a view into a larger
 * buffer is copied, since moving would hand over, and take from the worker, bytes that are not the body's.
 */
export const movableBuffers = (call: WorkerCall, value: unknown): ArrayBuffer[] | undefined => {
  if (call.op !== "verifyPrepared") return undefined;
  // Read defensively: a throw here would lose the reply, where copying the value only costs time.
  const body = (value as Partial<PreparedAnswer> | null | undefined)?.body;
  if (!(body instanceof Uint8Array) || !(body.buffer instanceof ArrayBuffer)) return undefined;
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? [body.buffer] : undefined;
};

/** A typed error as it crosses the thread boundary: its tag and its fields (no cause, no stack). */
export interface SerializedError {
  readonly tag: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** What a worker sends back: readiness, an answer to a call, or an event of its verifier. */
export type WorkerReply =
  | { readonly kind: "ready" }
  | { readonly kind: "result"; readonly id: number; readonly value: unknown }
  | { readonly kind: "failure"; readonly id: number; readonly error: SerializedError }
  | { readonly kind: "event"; readonly event: VerificationEvent };

const plainFields = (error: object): Record<string, unknown> => {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === "cause" || key === "_tag" || key === "stack") continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  return fields;
};

export const serializeError = (error: unknown): SerializedError => {
  const tag = (error as { _tag?: unknown } | null)?._tag;
  const message = errorMessage(error);
  return {
    tag: typeof tag === "string" ? tag : "Error",
    message,
    fields: typeof error === "object" && error !== null ? plainFields(error) : {},
  };
};

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const number = (value: unknown, fallback: number): number => (typeof value === "number" ? value : fallback);

/**
 * The library's typed errors rebuilt on the pool's side, so callers (and the server's problem mapping) see the
 * same classes a verifier in their own thread throws. Anything else is a VerificationError: never a pass.
 */
export const deserializeError = ({ tag, message, fields }: SerializedError): Error => {
  const layer = text(fields.layer) as LayerName | undefined;
  switch (tag) {
    case "InputError":
      return new InputError({ message, code: text(fields.code) ?? "INVALID_REQUEST" });
    case "VerificationTimeoutError":
      return new VerificationTimeoutError({
        message,
        timeoutMs: number(fields.timeoutMs, 0),
        ...(layer ? { layer } : {}),
      });
    case "InsufficientSourcesError":
      return new InsufficientSourcesError({
        message,
        required: number(fields.required, 0),
        available: number(fields.available, 0),
      });
    case "ConfigError":
      return new ConfigError({ message, ...(text(fields.key) ? { key: text(fields.key) } : {}) });
    case "CalibrationError":
      return new CalibrationError({ message, rawScore: number(fields.rawScore, Number.NaN) });
    case "VerificationError":
      return new VerificationError({ message, ...(layer ? { layer } : {}) });
    default:
      return new VerificationError({ message: `verification worker failed: ${message}` });
  }
};
