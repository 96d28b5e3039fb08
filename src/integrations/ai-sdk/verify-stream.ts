import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { CheckedAnswer } from "../shared/check-answer.js";
import { checkedAnswerMetadata, withVeracityMetadata } from "./metadata.js";

const appendedId = "veracity";

/** What `append` mode adds after the streamed text: the rest of the checked text, or a correction. */
export const appendedText = (streamed: string, checked: CheckedAnswer): string => {
  if (checked.text === streamed) return "";
  if (checked.text.startsWith(streamed)) return checked.text.slice(streamed.length);
  return `\n\n---\nCorrection (the text above failed verification):\n${checked.text}`;
};

const textParts = (id: string, text: string): LanguageModelV3StreamPart[] =>
  text.length === 0
    ? []
    : [
        { type: "text-start", id },
        { type: "text-delta", id, delta: text },
        { type: "text-end", id },
      ];

/**
 * Collects the text of a stream and verifies it when the model finishes. `append`: text passes through as
 * it arrives and what verification adds comes as a last text part. `replace`: text is held back and the
 * checked text is emitted at the end. The verification goes on the `finish` part's provider metadata.
 * A stream without text (tool calls only) is passed through unchanged.
 */
export const verifyStreamAtEnd = (
  check: (text: string) => Promise<CheckedAnswer>,
  mode: "append" | "replace",
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> => {
  let text = "";
  let finished = false;
  const isText = (part: LanguageModelV3StreamPart) =>
    part.type === "text-start" || part.type === "text-delta" || part.type === "text-end";
  const verdictParts = async (): Promise<{ parts: LanguageModelV3StreamPart[]; checked?: CheckedAnswer }> => {
    if (text.trim().length === 0) return { parts: [] };
    const checked = await check(text);
    const added = mode === "replace" ? checked.text : appendedText(text, checked);
    return { parts: textParts(appendedId, added), checked };
  };
  return new TransformStream({
    async transform(part, controller) {
      if (part.type === "text-delta") text += part.delta;
      if (mode === "replace" && isText(part)) return;
      if (part.type !== "finish") {
        controller.enqueue(part);
        return;
      }
      finished = true;
      const { parts, checked } = await verdictParts();
      for (const added of parts) controller.enqueue(added);
      controller.enqueue(
        checked === undefined
          ? part
          : {
              ...part,
              providerMetadata: withVeracityMetadata(part.providerMetadata, checkedAnswerMetadata(checked)),
            },
      );
    },
    async flush(controller) {
      // A stream that ended without a finish part: its text is still checked (and released in replace mode).
      if (finished) return;
      const { parts } = await verdictParts();
      for (const added of parts) controller.enqueue(added);
    },
  });
};
