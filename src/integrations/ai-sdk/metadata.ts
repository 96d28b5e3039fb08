import type { JSONObject, SharedV3ProviderMetadata } from "@ai-sdk/provider";
import type { CheckedAnswer } from "../shared/check-answer.js";
import { veracityMetadataKey } from "./options.js";

/** What the middleware attaches to `providerMetadata.veracity`. */
export const checkedAnswerMetadata = (checked: CheckedAnswer): JSONObject =>
  JSON.parse(
    JSON.stringify({
      passed: checked.passed,
      applied: checked.applied,
      regenerations: checked.regenerations,
      ...(checked.text === checked.originalText ? {} : { originalText: checked.originalText }),
      ...(checked.error === undefined ? {} : { error: checked.error }),
      ...(checked.result === undefined ? {} : { result: checked.result }),
    }),
  ) as JSONObject;

export const withVeracityMetadata = (
  existing: SharedV3ProviderMetadata | undefined,
  entry: JSONObject,
): SharedV3ProviderMetadata => ({ ...existing, [veracityMetadataKey]: entry });
