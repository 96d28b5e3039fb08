import type { LLMServiceShape } from "../../../llm/llm-service.js";
import { type LayerInput, notReady, type Readiness, ready } from "../../../model/layer.js";
import { claimsToJudge } from "./layer-claims.js";

/** A model layer can run when a model is configured and there is a claim to judge. */
export const modelReadiness = (
  llm: LLMServiceShape,
  input: LayerInput,
  needs: { readonly embeddings?: boolean } = {},
): Readiness => {
  if (llm.textUnavailable !== undefined) return notReady(llm.textUnavailable);
  if (needs.embeddings === true && llm.embeddingsUnavailable !== undefined)
    return notReady(llm.embeddingsUnavailable);
  if (claimsToJudge(input).claims.length === 0) return notReady("the text has no claim to check");
  return ready;
};
