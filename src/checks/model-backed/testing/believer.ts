import type { RecordedGenerateCall } from "../../../testing/scripted-model.js";

/** Claim texts of a prompt's numbered list ("[0] ..."). */
export const claimsIn = (call: RecordedGenerateCall): string[] =>
  [...call.prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((match) => match[2] ?? "");

/** A model that believes every claim it is shown. */
export const believer = (call: RecordedGenerateCall): object => {
  const claims = claimsIn(call);
  switch (call.schemaName) {
    case "statements":
      return { answers: claims.map((statement, claim) => ({ claim, statement })) };
    case "atomic_facts":
      return { facts: claims.map((fact, claim) => ({ claim, fact, type: "factual" })) };
    case "fact_checks":
      return { verdicts: claims.map((_, fact) => ({ fact, verdict: "supported", reason: "known" })) };
    case "source_verdict":
      return {
        claims: claims.map((_, claim) => ({ claim, relation: "supports", confidence: 0.95, quote: "" })),
      };
    case "consistency_check":
      return {
        claims: claims.map((_, claim) => ({ claim, agrees: true, confidence: 0.95, reasoning: "known" })),
      };
    case "nli":
      return {
        claims: claims.map((_, claim) => ({
          claim,
          relationship: "entailment",
          confidence: 0.95,
          explanation: "ok",
        })),
      };
    default:
      return { level: "medium", factors: [], reasoning: "default" };
  }
};
