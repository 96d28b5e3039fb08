import { Context, Effect, Layer, Option } from "effect";
import { VerificationError } from "../model/errors.js";
import type { RiskLevel } from "../model/risk.js";
import { VerificationConfig } from "./config.js";
import { assessHeuristicRisk } from "./risk-heuristics.js";

/** A model that classifies what the heuristics leave open (see the model-backed layers). */
export interface RiskModelShape {
  readonly classify: (text: string, context?: string) => Effect.Effect<RiskLevel, VerificationError>;
}

export class RiskModel extends Context.Tag("veracity/RiskModel")<RiskModel, RiskModelShape>() {}

export interface RiskAssessorShape {
  readonly assess: (text: string, context?: string) => Effect.Effect<RiskLevel, VerificationError>;
}

export class RiskAssessor extends Context.Tag("veracity/RiskAssessor")<RiskAssessor, RiskAssessorShape>() {}

/**
 * Heuristics first; then the risk model, when one is provided; else the configured fallback level. The
 * specification returned early only for "low" and asked the model even after a critical match; a heuristic
 * verdict is final here.
 */
export const RiskAssessorLive = Layer.effect(
  RiskAssessor,
  Effect.gen(function* () {
    const settings = yield* VerificationConfig;
    const model = yield* Effect.serviceOption(RiskModel);
    return {
      assess: (text, context) => {
        const heuristic = assessHeuristicRisk(text);
        if (heuristic !== undefined) return Effect.succeed(heuristic);
        if (Option.isNone(model)) return Effect.succeed(settings.fallbackRiskLevel);
        return model.value
          .classify(text, context)
          .pipe(
            Effect.mapError(
              (error) =>
                new VerificationError({ message: `risk assessment failed: ${error.message}`, cause: error }),
            ),
          );
      },
    };
  }),
);
