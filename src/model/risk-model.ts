import { Context, type Effect } from "effect";
import type { VerificationError } from "./errors.js";
import type { RiskLevel } from "./risk.js";

/**
 * The port for a model that classifies the risk of a text the heuristics leave open: the model-backed checks
 * provide one, the risk assessor consults it.
 */
export interface RiskModelShape {
  readonly classify: (text: string, context?: string) => Effect.Effect<RiskLevel, VerificationError>;
}

export class RiskModel extends Context.Tag("veracity/RiskModel")<RiskModel, RiskModelShape>() {}
