import { Schema } from "effect";
import type { ChatMessage } from "../../../llm/messages.js";
import type { Claim } from "../../../model/layer.js";
import { numberedClaims } from "../shared/layer-claims.js";
import { dataOnlyRule, delimited } from "../shared/prompt-safety.js";

export const ConsistencyCheck = Schema.Struct({
  claims: Schema.Array(
    Schema.Struct({
      claim: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
      agrees: Schema.Boolean,
      confidence: Schema.Number.pipe(Schema.between(0, 1)),
      reasoning: Schema.String,
    }),
  ),
});
export type ConsistencyCheck = typeof ConsistencyCheck.Type;

/**
 * Five wordings of the same question, each asked of every claim at once: a model that agrees with a claim
 * under one wording only is not consistent about it.
 */
export const paraphrases: readonly string[] = [
  "Verify each of these claims.",
  "Is each of the following statements accurate?",
  "Evaluate the truthfulness of each claim below.",
  "Would you agree with each of these assertions?",
  "Rate the accuracy of each of these statements.",
];

export const consistencyMessages = (paraphrase: string, claims: readonly Claim[]): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nFor every claim number say whether you agree it is true (agrees), your confidence ` +
      "from 0 to 1, and a one-sentence reasoning.",
  },
  { role: "user", content: `${paraphrase}\n\n${delimited("claims", numberedClaims(claims))}` },
];
