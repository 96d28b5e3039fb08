import type { DocumentInterface } from "@langchain/core/documents";
import { type Runnable, RunnableLambda } from "@langchain/core/runnables";
import { defaultVerifier } from "../../assembly/default-verifier.js";
import type { Verifier } from "../../facade/create-verifier.js";
import { type CheckedAnswer, checkAnswer, type Regenerate } from "../shared/check-answer.js";
import type { MitigationMode } from "../shared/mitigation-mode.js";

/** What the runnable takes: the chain's answer (a string or a message) and what was retrieved for it. */
export interface VerifiableOutput {
  readonly answer: string | { readonly content: unknown };
  readonly documents?: readonly DocumentInterface[];
  readonly context?: string;
  readonly question?: string;
}

export interface VeracityRunnableOptions {
  /** Default: the offline grounding and numbers layers. */
  readonly verifier?: Verifier;
  /** Default `disclaimer`. */
  readonly mode?: MitigationMode;
  /** For `regenerate`: how the answer is rewritten (e.g. the chain called again with the feedback). */
  readonly regenerate?: Regenerate;
  readonly maxRegenerations?: number;
  readonly fallback?: Exclude<MitigationMode, "regenerate">;
  readonly disclaimer?: string;
  readonly blockedReply?: string;
}

export const maxDocumentsPerAnswer = 100;

/** The text of an answer: a string, or a message whose content is a string or text parts. */
const answerText = (answer: VerifiableOutput["answer"]): string => {
  if (typeof answer === "string") return answer;
  const { content } = answer;
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .flatMap((part: unknown) =>
        typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text"
          ? [String((part as { text?: unknown }).text ?? "")]
          : [],
      )
      .join("");
  throw new TypeError("the answer must be a string or a message with text content");
};

/**
 * A LangChain Runnable that verifies a chain's answer against its retrieved documents and applies the
 * configured mitigation: `chain.pipe(veracityRunnable())` on `{ answer, documents, question }`. It returns
 * the checked text with the verification; a verification that errors blocks the answer (fail closed).
 */
export const veracityRunnable = (
  options: VeracityRunnableOptions = {},
): Runnable<VerifiableOutput, CheckedAnswer> => {
  let verifier = options.verifier;
  return RunnableLambda.from(async (input: VerifiableOutput): Promise<CheckedAnswer> => {
    const documents = input.documents ?? [];
    if (documents.length > maxDocumentsPerAnswer)
      throw new RangeError(`at most ${maxDocumentsPerAnswer} documents per answer (got ${documents.length})`);
    verifier ??= defaultVerifier();
    return checkAnswer(
      answerText(input.answer),
      {
        sources: documents.map((document) => document.pageContent),
        ...(input.context === undefined ? {} : { context: input.context }),
        ...(input.question === undefined ? {} : { question: input.question }),
      },
      {
        verifier,
        mode: options.mode ?? "disclaimer",
        texts: {
          ...(options.disclaimer === undefined ? {} : { disclaimer: options.disclaimer }),
          ...(options.blockedReply === undefined ? {} : { blockedReply: options.blockedReply }),
        },
        ...(options.regenerate === undefined ? {} : { regenerate: options.regenerate }),
        ...(options.maxRegenerations === undefined ? {} : { maxRegenerations: options.maxRegenerations }),
        ...(options.fallback === undefined ? {} : { fallback: options.fallback }),
      },
    );
  }).withConfig({ runName: "VeracityVerification" });
};
