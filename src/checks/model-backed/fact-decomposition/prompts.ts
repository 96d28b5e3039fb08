import { Schema } from "effect";
import type { ChatMessage } from "../../../llm/messages.js";
import { ClaimKind } from "../../../model/claim.js";
import type { Claim } from "../../../model/layer.js";
import { numberedClaims } from "../shared/layer-claims.js";
import { dataOnlyRule, delimited, neutralize } from "../shared/prompt-safety.js";

const Index = Schema.Number.pipe(Schema.int(), Schema.nonNegative());

export const AtomicFacts = Schema.Struct({
  facts: Schema.Array(Schema.Struct({ claim: Index, fact: Schema.String, type: ClaimKind })),
});
export type AtomicFacts = typeof AtomicFacts.Type;

export const FactVerdict = Schema.Literal("supported", "contradicted", "unverifiable");
export type FactVerdict = typeof FactVerdict.Type;

export const FactChecks = Schema.Struct({
  verdicts: Schema.Array(Schema.Struct({ fact: Index, verdict: FactVerdict, reason: Schema.String })),
});
export type FactChecks = typeof FactChecks.Type;

export const decomposeMessages = (claims: readonly Claim[]): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nDecompose each numbered claim into atomic facts: short statements that are each ` +
      "true or false on their own, repeating the subject instead of pronouns. Classify each fact as factual " +
      "(checkable against the world), opinion, inference (drawn from other facts) or uncertain (hedged). " +
      "Give the number of the claim each fact comes from.",
  },
  { role: "user", content: delimited("claims", numberedClaims(claims)) },
];

export const checkMessages = (facts: readonly string[], context: string | undefined): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nJudge each numbered fact against your knowledge` +
      (context === undefined ? "" : " and the context") +
      ": supported (true), contradicted (false) or unverifiable (you cannot tell). Give a short reason. " +
      "Judge every fact number.",
  },
  {
    role: "user",
    content:
      (context === undefined ? "" : `${delimited("context", context)}\n\n`) +
      delimited(
        "claims",
        facts.map((fact, index) => `[${index}] ${neutralize(fact.replace(/\s+/g, " "))}`).join("\n"),
      ),
  },
];
