import { Schema } from "effect";
import type { ChatMessage } from "../../../llm/messages.js";
import type { Claim, EvidenceSource } from "../../../model/layer.js";
import { numberedClaims } from "../shared/layer-claims.js";
import { dataOnlyRule, delimited } from "../shared/prompt-safety.js";

export const NliRelationship = Schema.Literal("entailment", "contradiction", "neutral");
export type NliRelationship = typeof NliRelationship.Type;

export const NliAnswer = Schema.Struct({
  claims: Schema.Array(
    Schema.Struct({
      claim: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
      relationship: NliRelationship,
      confidence: Schema.Number.pipe(Schema.between(0, 1)),
      explanation: Schema.String,
    }),
  ),
});
export type NliAnswer = typeof NliAnswer.Type;

export const nliMessages = (premises: readonly EvidenceSource[], claims: readonly Claim[]): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nThe premise is the text in the <source> and <context> blocks. For each numbered ` +
      "claim (a hypothesis) classify its relationship to the premise: entailment (it follows from the " +
      "premise), contradiction (it contradicts the premise) or neutral (the premise does not settle it). " +
      "Give your confidence from 0 to 1 and a one-sentence explanation. Judge every claim number.",
  },
  {
    role: "user",
    content: `${premises.map((premise) => delimited(premise.origin, premise.text)).join("\n")}\n\n${delimited("claims", numberedClaims(claims))}`,
  },
];
