/** The part of an OpenAI chat-completions request body the scripted answers read. */
export interface ChatRequestBody {
  readonly model?: string;
  readonly messages: readonly { readonly role: string; readonly content: string }[];
  readonly response_format?: { readonly json_schema?: { readonly name?: string } };
}

/**
 * A model's answers to the fact-decomposition layer over the wire, as JSON text: each numbered claim of the
 * prompt ("[0] ...") is one factual fact, and every fact gets `verdict` with `reason`. Other calls get "{}".
 */
export const factCheckAnswer = (
  body: ChatRequestBody,
  verdict: "supported" | "contradicted",
  reason: string,
): string => {
  const prompt = body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
  const numbered = [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((match) => match[2] ?? "");
  switch (body.response_format?.json_schema?.name) {
    case "atomic_facts":
      return JSON.stringify({ facts: numbered.map((fact, claim) => ({ claim, fact, type: "factual" })) });
    case "fact_checks":
      return JSON.stringify({ verdicts: numbered.map((_, fact) => ({ fact, verdict, reason })) });
    default:
      return "{}";
  }
};
