import { Effect, Layer, Schema } from "effect";
import { LLMService } from "../../llm/llm-service.js";
import type { ChatMessage } from "../../llm/messages.js";
import { VerificationError } from "../../model/errors.js";
import { RiskLevel } from "../../model/risk.js";
import { RiskModel, type RiskModelShape } from "../../model/risk-model.js";
import { dataOnlyRule, delimited } from "./shared/prompt-safety.js";

export const RiskAssessment = Schema.Struct({
  level: RiskLevel,
  factors: Schema.Array(Schema.String),
  reasoning: Schema.String,
});
export type RiskAssessment = typeof RiskAssessment.Type;

export const riskMessages = (text: string, context: string | undefined): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nAssess the risk of acting on this AI-generated text if it were wrong. Consider ` +
      "factual claims, medical, legal or financial advice, actionable instructions and potential for harm. " +
      "Classify it as low, medium, high or critical and list the factors.",
  },
  {
    role: "user",
    content:
      delimited("text_under_test", text) +
      (context === undefined ? "" : `\n\n${delimited("context", context)}`),
  },
];

/**
 * The model-backed risk classification, for texts the heuristic assessor leaves undecided. One structured
 * call; a failed call is a `VerificationError` (the caller decides the fallback, never "low").
 */
export const classifyRiskWithModel = (
  text: string,
  context?: string,
): Effect.Effect<RiskAssessment, VerificationError, LLMService> =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    if (llm.textUnavailable !== undefined) {
      return yield* Effect.fail(
        new VerificationError({ message: `risk assessment needs a model: ${llm.textUnavailable}` }),
      );
    }
    const answer = yield* llm
      .completeStructured({
        messages: riskMessages(text, context),
        schema: RiskAssessment,
        schemaName: "risk_assessment",
        purpose: "risk",
        temperature: 0,
      })
      .pipe(
        Effect.mapError(
          (error) =>
            new VerificationError({ message: `risk assessment failed: ${error.message}`, cause: error }),
        ),
      );
    return answer.value;
  });

/** The risk model (`RiskModel`), answered by the configured model (for texts the heuristics leave open). */
export const makeModelRiskModel: Effect.Effect<RiskModelShape, never, LLMService> = Effect.map(
  LLMService,
  (llm) => ({
    classify: (text, context) =>
      Effect.map(classifyRiskWithModel(text, context), (assessment) => assessment.level).pipe(
        Effect.provideService(LLMService, llm),
      ),
  }),
);

/** `RiskModel` from `LLMService`. */
export const ModelRiskModelLive: Layer.Layer<RiskModel, never, LLMService> = Layer.effect(
  RiskModel,
  makeModelRiskModel,
);
