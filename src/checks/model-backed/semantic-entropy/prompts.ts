import { Schema } from "effect";
import type { ChatMessage } from "../../../llm/messages.js";
import type { Claim } from "../../../model/layer.js";
import { numberedClaims } from "../shared/layer-claims.js";
import { dataOnlyRule, delimited } from "../shared/prompt-safety.js";

const ClaimNumber = Schema.Number.pipe(Schema.int(), Schema.nonNegative());

/** One sample: the model's own statement about the subject of each claim. */
export const SampleAnswer = Schema.Struct({
  answers: Schema.Array(Schema.Struct({ claim: ClaimNumber, statement: Schema.String })),
});
export type SampleAnswer = typeof SampleAnswer.Type;

/** Meaning clusters of the statements about each claim (statement 0 is the claim itself). */
export const MeaningClusters = Schema.Struct({
  claims: Schema.Array(
    Schema.Struct({ claim: ClaimNumber, clusters: Schema.Array(Schema.Array(ClaimNumber)) }),
  ),
});
export type MeaningClusters = typeof MeaningClusters.Type;

export const sampleMessages = (claims: readonly Claim[], question: string | undefined): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nYou check claims against your own knowledge. For each numbered claim, write one ` +
      "sentence stating what you believe is true about the same subject, answering the question the claim " +
      "answers. Do not copy a claim you believe is wrong: state what you believe instead. If you do not know, " +
      'write "unknown".',
  },
  {
    role: "user",
    content:
      (question === undefined ? "" : `${delimited("question", question)}\n\n`) +
      `${delimited("claims", numberedClaims(claims))}\n\nGive one statement for every claim number.`,
  },
];

export interface StatementsOfClaim {
  readonly claim: Claim;
  /** The model's statements about it, one per sample. */
  readonly statements: readonly string[];
}

export const clusterMessages = (items: readonly StatementsOfClaim[]): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nFor each claim you get numbered statements; statement 0 is the claim itself. Group ` +
      "the statements by meaning: two statements belong to the same group only if each entails the other " +
      "(bidirectional entailment). Every statement number appears in exactly one group.",
  },
  {
    role: "user",
    content: items
      .map(
        ({ claim, statements }, position) =>
          `Claim ${position}:\n` +
          delimited(
            "answers",
            [claim.text, ...statements].map((statement, index) => `(${index}) ${statement}`).join("\n"),
          ),
      )
      .join("\n\n"),
  },
];
