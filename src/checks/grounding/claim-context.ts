import type { Claim } from "../../model/layer.js";
import type { Token } from "../../text/tokens.js";
import type { Alignment } from "./align.js";
import type { Passage, SourceIndex } from "./source-index.js";

/** Whether a stem occurs in some passages. */
export interface StemLookup {
  readonly has: (stem: string) => boolean;
}

/** What every grounding check sees of one claim: its tokens and the evidence it was aligned to. */
export interface ClaimContext {
  readonly claim: Claim;
  readonly tokens: readonly Token[];
  readonly contentTokens: readonly Token[];
  readonly index: SourceIndex;
  readonly alignments: readonly Alignment[];
  /** The aligned passages and their neighbours: where a claim's words count as found nearby. */
  readonly window: readonly Passage[];
  readonly windowStems: StemLookup;
  /** The aligned passages alone: where a swapped value or opposite is looked for. */
  readonly aligned: readonly Passage[];
  readonly alignedStems: StemLookup;
}

/** A problem one check found, with how much it lowers the claim's support and whether it contradicts. */
export interface GroundingFinding {
  readonly code: string;
  readonly message: string;
  readonly span: { readonly start: number; readonly end: number };
  readonly penalty: number;
  readonly contradicts: boolean;
}

export type GroundingCheck = (context: ClaimContext) => GroundingFinding[];
