import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Middleware,
} from "@ai-sdk/provider";
import { defaultVerifier } from "../../assembly/default-verifier.js";
import type { Verifier } from "../../facade/create-verifier.js";
import { type CheckedAnswer, checkAnswer, type Regenerate } from "../shared/check-answer.js";
import { evidenceOfCall } from "./call-evidence.js";
import { checkedAnswerMetadata, withVeracityMetadata } from "./metadata.js";
import type { VeracityMiddlewareOptions } from "./options.js";
import { verifyStreamAtEnd } from "./verify-stream.js";

const textOf = (content: readonly LanguageModelV3Content[]): string =>
  content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");

/** The default rewrite: the wrapped model asked again, with its answer and the failing claims. */
const regenerateWith =
  (model: LanguageModelV3, params: LanguageModelV3CallOptions): Regenerate =>
  async ({ answer, feedback }) => {
    const retried = await model.doGenerate({
      ...params,
      prompt: [
        ...params.prompt,
        { role: "assistant", content: [{ type: "text", text: answer }] },
        { role: "user", content: [{ type: "text", text: feedback }] },
      ],
    });
    return textOf(retried.content);
  };

/** Puts the checked text where the first text part was; other text parts are dropped. */
const replaceText = (content: readonly LanguageModelV3Content[], text: string): LanguageModelV3Content[] => {
  const first = content.findIndex((part) => part.type === "text");
  return content.flatMap((part, index): LanguageModelV3Content[] => {
    if (part.type !== "text") return [part];
    return index === first ? [{ ...part, text }] : [];
  });
};

/**
 * AI SDK middleware for `wrapLanguageModel`: every answer is verified against the sources of its call
 * (`providerOptions.veracity.sources`/`context`) and the configured ones (a list or a retriever), the
 * configured mitigation is applied to an answer that fails, and the verification is attached to
 * `providerMetadata.veracity`. Steps without text (tool calls only) are left as they are.
 */
export const veracityMiddleware = (options: VeracityMiddlewareOptions = {}): LanguageModelV3Middleware => {
  let verifier: Verifier | undefined = options.verifier;
  const verifierNow = () => {
    verifier ??= defaultVerifier();
    return verifier;
  };
  const check = async (
    text: string,
    params: LanguageModelV3CallOptions,
    model: LanguageModelV3,
  ): Promise<CheckedAnswer> =>
    checkAnswer(text, await evidenceOfCall(params, options.sources), {
      verifier: verifierNow(),
      mode: options.mode ?? "disclaimer",
      regenerate: options.regenerate ?? regenerateWith(model, params),
      texts: {
        ...(options.disclaimer === undefined ? {} : { disclaimer: options.disclaimer }),
        ...(options.blockedReply === undefined ? {} : { blockedReply: options.blockedReply }),
      },
      ...(options.maxRegenerations === undefined ? {} : { maxRegenerations: options.maxRegenerations }),
      ...(options.fallback === undefined ? {} : { fallback: options.fallback }),
    });
  return {
    specificationVersion: "v3",
    wrapGenerate: async ({ doGenerate, params, model }) => {
      const generated = await doGenerate();
      const text = textOf(generated.content);
      if (text.trim().length === 0) return generated;
      const checked = await check(text, params, model);
      return {
        ...generated,
        content: replaceText(generated.content, checked.text),
        providerMetadata: withVeracityMetadata(generated.providerMetadata, checkedAnswerMetadata(checked)),
      };
    },
    wrapStream: async ({ doStream, params, model }) => {
      const streamed = await doStream();
      return {
        ...streamed,
        stream: streamed.stream.pipeThrough(
          verifyStreamAtEnd((text) => check(text, params, model), options.streamMode ?? "append"),
        ),
      };
    },
  };
};
