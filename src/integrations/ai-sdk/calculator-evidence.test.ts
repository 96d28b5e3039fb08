import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runCalculatorCall } from "../../checks/numbers/tool/calculator-tool.js";
import { createVerifier } from "../../facade/create-verifier.js";
import { calculatorEvidence, evidenceOfCall } from "./call-evidence.js";

/** A conversation in which the model called the calculator, then is asked for its answer. */
const conversation = (expression: string): LanguageModelV3Prompt => [
  { role: "user", content: [{ type: "text", text: "What was the earnings surprise?" }] },
  {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: "c1", toolName: "calculate", input: { expression } }],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "calculate",
        output: { type: "json", value: { ...runCalculatorCall({ expression }) } },
      },
    ],
  },
];

const callOf = (prompt: LanguageModelV3Prompt) => ({ prompt }) as LanguageModelV3CallOptions;

describe("AI SDK middleware: calculator results are evidence", () => {
  it("reads the calculator's results from the conversation", () => {
    const text = calculatorEvidence(conversation("(0.50 - 0.45) / 0.45 * 100"));
    expect(text).toMatch(/^calculate: \(0\.50 - 0\.45\) \/ 0\.45 \* 100 = 11\.1111111111/);
  });

  it("leaves out refused expressions and other tools", () => {
    const refused = conversation("2 +");
    expect(calculatorEvidence(refused)).toBeUndefined();
    const other: LanguageModelV3Prompt = [
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "s1",
            toolName: "search",
            output: { type: "json", value: { expression: "1+1", result: "2" } },
          },
        ],
      },
    ];
    expect(calculatorEvidence(other)).toBeUndefined();
  });

  it("passes an answer that rounds the tool's result, and flags one that does not come from it", async () => {
    const evidence = await evidenceOfCall(callOf(conversation("(0.50 - 0.45) / 0.45 * 100")), undefined);
    const verifier = await createVerifier({});
    const verify = (text: string) =>
      verifier.verify({ text, sources: [...evidence.sources], layers: ["numbers"] });
    expect((await verify("The earnings surprise was 11.11%.")).verdict).toBe("pass");
    // A figure that comes from nowhere is unsupported: flagged as a warning, never a pass.
    const orphan = await verify("The earnings surprise was 10.96%.");
    expect(orphan.verdict).toBe("warn");
    expect(orphan.claims.map((claim) => claim.verdict)).toEqual(["unsupported"]);
  });
});
