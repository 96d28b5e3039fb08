/**
 * An MCP client session with `veracity mcp` over stdio: list the tools, check a draft before committing it,
 * compute a derived number, and see a bad call answered with a structured error.
 *
 *   node --import tsx examples/mcp-client.ts
 *
 * The client starts the installed package's server itself (`veracity mcp`, i.e. `npx veracity mcp`).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

// The installed package's own CLI (`veracity mcp`), found through its package.json.
const packageRoot = dirname(createRequire(import.meta.url).resolve("veracity/package.json"));

export const main = async () => {
  const client = new Client({ name: "veracity-example", version: "0.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(packageRoot, "dist/cli/main.js"), "mcp"],
      stderr: "pipe",
    }),
  );
  try {
    const { tools } = await client.listTools();
    const source = "The Eiffel Tower is 330 metres tall. It was completed in 1889.";
    const draft = await client.callTool({
      name: "verify",
      arguments: {
        text: "The Eiffel Tower is 330 metres tall. It was completed in 1925.",
        sources: [source],
      },
    });
    const growth = await client.callTool({
      name: "calculate",
      arguments: { expression: "(330 - 300) / 300 * 100" },
    });
    const bad = await client.callTool({ name: "calculate", arguments: { formula: "1 + 1" } });
    return {
      tools: tools.map((tool) => tool.name),
      draftPassed: (draft.structuredContent as { passed: boolean }).passed,
      growth: (growth.structuredContent as { result: string }).result,
      // A failed call carries its { error: { code, message } } as JSON text.
      badCall: { isError: bad.isError, text: (bad.content as { text: string }[])[0]?.text },
    };
  } finally {
    await client.close();
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await main(), null, 2));
}
