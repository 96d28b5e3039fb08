import { describe, expect, it } from "vitest";
import { main as calculatorAgent } from "../examples/calculator-agent.js";
import { main as mcpClient } from "../examples/mcp-client.js";
import { main as memoryAgent } from "../examples/memory-agent.js";
import { main as ragMiddleware } from "../examples/rag-middleware.js";

describe("the examples", () => {
  it("rag-middleware: redacts the claim the retrieved documents do not support", async () => {
    expect(await ragMiddleware()).toEqual({
      text: "The Eiffel Tower is 330 metres tall.\n\n[1 unsupported statement was removed]",
      passed: false,
      applied: "redact",
    });
  });

  it("rag-middleware: lets a supported answer through", async () => {
    expect(await ragMiddleware("The Eiffel Tower is 330 metres tall.")).toMatchObject({
      text: "The Eiffel Tower is 330 metres tall.",
      passed: true,
    });
  });

  it("calculator-agent: the derived percentage is traced to the calculator", async () => {
    const outcome = await calculatorAgent();
    expect(outcome.calculations).toEqual([
      { expression: "(5.1 - 4.2) / 4.2 * 100", result: "21.42857142857142857142857142857142857143" },
    ]);
    expect(outcome.untraced).toEqual([]);
  });

  it("calculator-agent: a figure from nowhere is reported", async () => {
    const outcome = await calculatorAgent(
      "Revenue grew from $4.2 million to $5.1 million, an increase of 27%.",
    );
    expect(outcome.untraced).toEqual(["27%"]);
  });

  it("memory-agent: the model's writes go through the gate: the preference is stored, the synthesis queued", async () => {
    const outcome = await memoryAgent();
    expect(outcome.outcomes.map((write) => [write.content, write.status])).toEqual([
      ["I prefer answers in metric units.", "stored"],
      ["The production database was migrated to MongoDB last week.", "queued"],
    ]);
    expect(outcome.stored).toEqual(["I prefer answers in metric units."]);
    expect(outcome.pendingReview).toEqual(["The production database was migrated to MongoDB last week."]);
    expect(outcome.modelRequests).toBe(3);
    expect(outcome.toolResultsSentToModel.map((result) => result.status)).toEqual(["stored", "queued"]);
    expect(outcome.reply).toBe("Noted your preference for metric units.");
  });

  it("mcp-client: lists the tools, catches the wrong draft, calculates, and gets an error flagged isError", async () => {
    const outcome = await mcpClient();
    expect(outcome.tools).toContain("verify");
    expect(outcome).toMatchObject({
      draftPassed: false,
      growth: "10",
      badCall: { isError: true },
    });
    expect(JSON.parse(outcome.badCall.text ?? "{}")).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });
});
