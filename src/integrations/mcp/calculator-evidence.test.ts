import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callForStructured } from "../testing/mcp-client.js";
import { openMcpDependencies } from "./dependencies.js";
import { startMcpHttpServer } from "./http.js";

// A made-up quarter: the figures a model reads, then computes a margin from with the tool.
const source = "In the quarter the company sold goods for $7.00 million at a cost of $2.00 million.";

/** The numbers layer's result in a VerificationResult (grounding judges the wording; this is about numbers). */
const numbersLayer = (result: Record<string, unknown>) =>
  (result.layersRun as { layer: string; passed: boolean }[] | undefined)?.find(
    (layer) => layer.layer === "numbers",
  );

describe("MCP: the results of `calculate` are evidence for `verify` and `validate_numbers`", () => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const dependencies = openMcpDependencies({ userId: "analyst" });
    const server = await startMcpHttpServer(dependencies, { insecureNoAuthentication: true });
    client = new Client({ name: "veracity-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    close = async () => {
      await client.close();
      await server.close();
      await dependencies.close();
    };
  });
  afterAll(() => close());

  it("traces a rounded tool result and flags a figure the tool did not give", async () => {
    const text = "The gross margin was 71.43%.";
    const before = await callForStructured(client, "validate_numbers", { text, sources: [source] });
    expect(before.structured.passed).toBe(false);
    const calculated = await callForStructured(client, "calculate", {
      expression: "(7.00 - 2.00) / 7.00 * 100",
    });
    expect(String(calculated.structured.result)).toMatch(/^71\.428571428571/);
    const after = await callForStructured(client, "validate_numbers", { text, sources: [source] });
    expect(after.structured.passed).toBe(true);
    const verified = await callForStructured(client, "verify", {
      text,
      sources: [source],
    });
    expect(numbersLayer(verified.structured)?.passed).toBe(true);
    const wrong = await callForStructured(client, "verify", {
      text: "The gross margin was 74.13%.",
      sources: [source],
    });
    expect(numbersLayer(wrong.structured)?.passed).toBe(false);
  });
});
