/**
 * An agent that uses the `calculate` tool for derived numbers, and its answer checked by numeric validation:
 * figures traced to the sources or to the calculator are fine, figures from nowhere are reported.
 *
 *   node --import tsx examples/calculator-agent.ts
 *
 * Runs against a local OpenAI-compatible server on 127.0.0.1 replaying a tool call and a final answer.
 */
import { pathToFileURL } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs } from "ai";
import { CalculationRecorder, validateNumbers } from "veracity";
import { calculatorTool } from "veracity/ai-sdk";
import { openAIChatCompletion, openAIToolCall, startProviderServer } from "veracity/testing";

const report = "Revenue was $4.2 million in 2023 and $5.1 million in 2024.";

export const main = async (
  finalAnswer = "Revenue grew from $4.2 million to $5.1 million, an increase of 21.43%.",
) => {
  const provider = await startProviderServer();
  provider.enqueue(
    "openai.chat",
    openAIToolCall("calculate", { expression: "(5.1 - 4.2) / 4.2 * 100" }),
    openAIChatCompletion(finalAnswer),
  );
  try {
    const recorder = new CalculationRecorder();
    const result = await generateText({
      model: createOpenAICompatible({ name: "local", baseURL: provider.openAIBaseUrl }).chatModel("any"),
      system: "Use the calculate tool for every derived number.",
      prompt: `${report}\nBy how much did revenue grow, in percent?`,
      tools: { calculate: calculatorTool(recorder) },
      stopWhen: stepCountIs(3),
    });
    const validation = validateNumbers({
      text: result.text,
      evidence: [{ index: 0, origin: "source", text: report }],
      calculations: recorder.recorded,
    });
    return {
      text: result.text,
      calculations: recorder.recorded,
      untraced: [...validation.orphanNumbers, ...validation.suspicious].map((check) => check.text),
    };
  } finally {
    await provider.close();
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await main());
}
