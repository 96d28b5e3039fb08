import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import {
  anthropicCalculatorTool,
  calculatorTool,
  openAiCalculatorTool,
  runCalculatorCall,
} from "./calculator-tool.js";
import { CalculationRecorder } from "./recorder.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

describe("the calculator tool", () => {
  it("records successful calls and returns refusals without recording them", () => {
    const recorder = new CalculationRecorder();
    expect(runCalculatorCall({ expression: "(0.50 - 0.45) / 0.45 * 100" }, recorder)).toEqual({
      expression: "(0.50 - 0.45) / 0.45 * 100",
      result: "11.11111111111111111111111111111111111111",
    });
    expect(runCalculatorCall({ expression: "1 / 0" }, recorder)).toMatchObject({
      reason: "division-by-zero",
    });
    expect(recorder.recorded).toEqual([
      { expression: "(0.50 - 0.45) / 0.45 * 100", result: "11.11111111111111111111111111111111111111" },
    ]);
  });

  it("keeps a bounded number of recorded calls", () => {
    const recorder = new CalculationRecorder(2);
    for (const expression of ["1+1", "2+2", "3+3"]) runCalculatorCall({ expression }, recorder);
    expect(recorder.recorded.map((call) => call.result)).toEqual(["4", "6"]);
  });

  it("runs inside generateText when the model calls it, and the call is recorded", async () => {
    const recorder = new CalculationRecorder();
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            {
              type: "tool-call",
              toolCallId: "call-1",
              toolName: "calculate",
              input: JSON.stringify({ expression: "20893 + 76378" }),
            },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "The sum is 97271." }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        },
      ],
    });
    const result = await generateText({
      model,
      prompt: "Add the two volumes.",
      tools: { calculate: calculatorTool(recorder) },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("The sum is 97271.");
    expect(recorder.recorded).toEqual([{ expression: "20893 + 76378", result: "97271" }]);
    const sentTools = model.doGenerateCalls[0]?.tools ?? [];
    expect(sentTools).toEqual([
      expect.objectContaining({
        type: "function",
        name: "calculate",
        inputSchema: expect.objectContaining({ required: ["expression"] }),
      }),
    ]);
  });

  it("has OpenAI and Anthropic function-calling definitions with the same schema", () => {
    expect(openAiCalculatorTool.function.name).toBe("calculate");
    expect(anthropicCalculatorTool.input_schema).toBe(openAiCalculatorTool.function.parameters);
  });
});
