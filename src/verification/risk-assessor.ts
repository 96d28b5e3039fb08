import { Context, Effect, Layer, Option } from "effect";
import { VerificationError } from "../model/errors.js";
import type { RiskLevel } from "../model/risk.js";
import { VerificationConfig } from "./config.js";
import { assessHeuristicRisk } from "./risk-heuristics.js";

export { RiskModel, type RiskModelShape } from "../model/risk-model.js";

import { RiskModel } from "../model/risk-model.js";

export interface RiskAssessorShape {
  readonly assess: (text: string, context?: string) => Effect.Effect<RiskLevel, VerificationError>;
}

export class RiskAssessor extends Context.Tag("veracity/RiskAssessor")<RiskAssessor, RiskAssessorShape>() {}

/**
 * Heuristics first; then the risk model, when one is provided; else the configured fallback level. A
 * heuristic verdict is final at every level, critical included: the model is asked only about texts the
 * patterns leave undecided, so it can never lower the risk of a text they read as medical, legal or
 * financial.
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
