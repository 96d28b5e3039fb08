import { Schema } from "effect";
import type { ChatMessage } from "../../../llm/messages.js";
import type { Claim } from "../../../model/layer.js";
import { numberedClaims } from "../shared/layer-claims.js";
import { dataOnlyRule, delimited } from "../shared/prompt-safety.js";

export const SourceVerdict = Schema.Struct({
  claims: Schema.Array(
    Schema.Struct({
      claim: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
      relation: Schema.Literal("supports", "contradicts", "not-mentioned"),
      confidence: Schema.Number.pipe(Schema.between(0, 1)),
      /** A verbatim passage of the source, or "" when there is none. */
      quote: Schema.String,
    }),
  ),
});
export type SourceVerdict = typeof SourceVerdict.Type;

export const sourceMessages = (claims: readonly Claim[], source: string): ChatMessage[] => [
  {
    role: "system",
    content:
      `${dataOnlyRule}\n\nJudge each numbered claim against the source only, not your own knowledge: ` +
      "supports (the source states it), contradicts (the source states otherwise) or not-mentioned. Give " +
      "your confidence from 0 to 1 and quote the passage of the source you relied on verbatim (empty when " +
      "not mentioned). Judge every claim number.",
  },
  {
    role: "user",
    content: `${delimited("source", source)}\n\n${delimited("claims", numberedClaims(claims))}`,
  },
];
