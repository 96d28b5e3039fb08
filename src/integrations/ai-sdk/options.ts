import type { Verifier } from "../../facade/create-verifier.js";
import type { Regenerate } from "../shared/check-answer.js";
import type { MitigationMode } from "../shared/mitigation-mode.js";
import type { SourcesRetriever } from "./call-evidence.js";

export interface VeracityMiddlewareOptions {
  /** The verifier (`createVerifier(...)`); default: the offline grounding and numbers layers. */
  readonly verifier?: Verifier;
  /** Sources for every call, or a retriever asked per call; added after the call's own sources. */
  readonly sources?: readonly string[] | SourcesRetriever;
  /** What happens to an answer that fails verification (default `disclaimer`). */
  readonly mode?: MitigationMode;
  /**
   * Streams: `append` (default) lets text through as it arrives and appends the disclaimer or a correction
   * when the stream ends; `replace` holds the text back and emits the verified (mitigated) text at the end.
   */
  readonly streamMode?: "append" | "replace";
  /** For `regenerate`: how to rewrite; default: the wrapped model asked again with the failing claims. */
  readonly regenerate?: Regenerate;
  /** For `regenerate`: most rewrites (default 1, at most 5). */
  readonly maxRegenerations?: number;
  /** For `regenerate`: applied when the last rewrite still fails (default `disclaimer`). */
  readonly fallback?: Exclude<MitigationMode, "regenerate">;
  readonly disclaimer?: string;
  readonly blockedReply?: string;
}

/** The key of the provider metadata where the verification is attached. */
export const veracityMetadataKey = "veracity";
