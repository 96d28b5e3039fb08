import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, keyHolder, migrateServerTables } from "../../server/keys/api-keys.js";
import { runEffect } from "../../server/run-effect.js";
import { openSqlClient } from "../../storage/open.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import {
  type ChatRequestBody,
  factCheckAnswer,
  openAIChatCompletion,
  type ProviderServer,
  startProviderServer,
} from "../../testing/index.js";
import { callForStructured } from "../testing/mcp-client.js";
import { openMcpDependencies } from "./dependencies.js";
import { type McpHttpServer, startMcpHttpServer } from "./http.js";

/**
 * MCP's `verify` with a model: fact decomposition reads the facts the calling key's user stored in the
 * server's memory store, and nobody else's. The scripted model confirms nothing, so only the memory can.
 */
const stored = "The Harbor Trust board approved the second container terminal in Gdynia in August 2021.";

let provider: ProviderServer;
let sql: SqlClientService;
let dependencies: ReturnType<typeof openMcpDependencies>;
let server: McpHttpServer;
const keys: Record<string, string> = {};

const connect = async (key: string) => {
  const client = new Client({ name: "veracity-fact-memory-test", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
};

beforeAll(async () => {
  provider = await startProviderServer({
    // The risk assessment reads "medium" (fact decomposition runs); every fact check says "contradicted".
    respond: (request) => {
      const body = request.body as ChatRequestBody;
      return openAIChatCompletion(
        body.response_format?.json_schema?.name === "risk_assessment"
          ? JSON.stringify({ level: "medium", factors: [], reasoning: "a factual claim" })
          : factCheckAnswer(body, "contradicted", "no such record"),
      );
    },
  });
  sql = await runEffect(openSqlClient("memory://"));
  await runEffect(migrateServerTables(sql));
  keys.ana = (await runEffect(createApiKey(sql, "ana", "laptop", "reviewer"))).key;
  keys.ben = (await runEffect(createApiKey(sql, "ben", "laptop", "reviewer"))).key;
  dependencies = openMcpDependencies({
    memorySql: sql,
    verifier: { model: "openai:gpt-4o-mini" },
    env: { OPENAI_API_KEY: "sk-mcp-test", OPENAI_BASE_URL: provider.openAIBaseUrl },
  });
  server = await startMcpHttpServer(dependencies, { authenticate: keyHolder(sql) });
  const ana = await connect(keys.ana as string);
  const ingested = await callForStructured(ana, "ingest_memory", {
    content: stored,
    memoryType: "fact",
    source: "user",
  });
  expect(ingested.isError).toBe(false);
  await ana.close();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await dependencies?.close();
  await runEffect(Effect.ignore(sql.close));
  await provider?.close();
});

const fromMemory = async (key: string, text: string) => {
  const client = await connect(key);
  try {
    const { structured, isError } = await callForStructured(client, "verify", { text });
    if (isError) throw new Error(`verify failed: ${JSON.stringify(structured).slice(0, 400)}`);
    const layer = (
      structured.layersRun as { layer: string; details: { verifiedFromMemory?: number } }[]
    ).find((each) => each.layer === "fact-decomposition");
    return layer?.details.verifiedFromMemory;
  } finally {
    await client.close();
  }
};

describe("MCP verify reads the caller's stored facts", () => {
  it("confirms the fact for the user who stored it, not for another user", async () => {
    expect(await fromMemory(keys.ana as string, stored)).toBe(1);
    expect(await fromMemory(keys.ben as string, stored)).toBe(0);
  }, 60_000);
});
