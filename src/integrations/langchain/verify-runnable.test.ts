import { Document } from "@langchain/core/documents";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createVerifier } from "../../facade/create-verifier.js";
import { defaultBlockedReply, defaultDisclaimer } from "../../mitigation/actions.js";
import { veracityRunnable } from "./index.js";

const documents = [
  new Document({
    pageContent: "The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World's Fair.",
  }),
];
const supported = "The Eiffel Tower is 330 metres tall.";
const unsupported = "The Eiffel Tower is 330 metres tall. It was painted gold in 1975 by the mayor of Lyon.";

const verifier = createVerifier();
afterAll(() => verifier.close());

/** A RAG chain: retrieve, answer with the (fake) chat model, then verify against what was retrieved. */
const ragChain = (answers: string[], options: Parameters<typeof veracityRunnable>[0] = {}) => {
  const model = new FakeListChatModel({ responses: answers });
  const prompt = ChatPromptTemplate.fromTemplate("Answer from the context.\n{context}\nQuestion: {question}");
  const answer = RunnableSequence.from([
    (input: { question: string; documents: Document[] }) => ({
      question: input.question,
      context: input.documents.map((document) => document.pageContent).join("\n"),
    }),
    prompt,
    model,
    new StringOutputParser(),
  ]);
  return RunnableSequence.from([
    RunnableLambda.from((question: string) => ({ question, documents })),
    RunnablePassthrough.assign({ answer }),
    veracityRunnable({ verifier, ...options }),
  ]);
};

describe("veracityRunnable in a LangChain RAG chain", () => {
  it("passes an answer its retrieved documents support", async () => {
    const checked = await ragChain([supported]).invoke("How tall is the Eiffel Tower?");
    expect(checked).toMatchObject({ text: supported, passed: true, applied: "none" });
  });

  it.each([
    ["disclaimer", `${unsupported}\n\n${defaultDisclaimer}`],
    ["block", defaultBlockedReply],
    ["redact", "The Eiffel Tower is 330 metres tall.\n\n[1 unsupported statement was removed]"],
  ] as const)("applies %s to an unsupported answer", async (mode, expected) => {
    const checked = await ragChain([unsupported], { mode }).invoke("How tall is the Eiffel Tower?");
    expect(checked).toMatchObject({
      text: expected,
      passed: false,
      applied: mode,
      originalText: unsupported,
    });
    expect(checked.result?.claims.map((claim) => claim.verdict)).toEqual(["supported", "unsupported"]);
  });

  it("regenerates with the given function and keeps the rewrite that verifies", async () => {
    const feedbacks: string[] = [];
    const checked = await ragChain([unsupported], {
      mode: "regenerate",
      regenerate: async ({ feedback }) => {
        feedbacks.push(feedback);
        return supported;
      },
    }).invoke("How tall is the Eiffel Tower?");
    expect(checked).toMatchObject({ text: supported, passed: true, applied: "regenerate", regenerations: 1 });
    expect(feedbacks[0]).toContain("painted gold");
  });

  it("reads a chat message as the answer", async () => {
    const checked = await veracityRunnable({ verifier }).invoke({
      answer: { content: [{ type: "text", text: supported }] },
      documents,
    });
    expect(checked.passed).toBe(true);
  });

  it("does not pass an answer when nothing was retrieved", async () => {
    const checked = await veracityRunnable({ verifier, mode: "block" }).invoke({ answer: supported });
    expect(checked).toMatchObject({ passed: false, text: defaultBlockedReply });
  });
});
