import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../src/server/testing/test-server.js";
import {
  type ChatRequestBody,
  factCheckAnswer,
  openAIChatCompletion,
  type ProviderServer,
  startProviderServer,
} from "../src/testing/index.js";

/**
 * `/v1/verify` with a model: fact decomposition looks facts up in the server's own memory store, among the
 * facts of the user whose key made the request, and nobody else's. The model here confirms nothing, so a fact
 * that passes was confirmed by the memory.
 */
const stored = "The Harbor Trust board approved the second container terminal in Gdynia in August 2021.";

let provider: ProviderServer;
let server: TestServer;
let ana: string;
let ben: string;

beforeAll(async () => {
  provider = await startProviderServer({
    respond: (request) =>
      openAIChatCompletion(
        factCheckAnswer(request.body as ChatRequestBody, "contradicted", "no such record"),
      ),
  });
  server = await startTestServer(
    {},
    {
      model: "openai:gpt-4o-mini",
      verifyWorkers: 0,
      env: { OPENAI_API_KEY: "sk-server-test", OPENAI_BASE_URL: provider.openAIBaseUrl },
    },
  );
  ana = await server.createApiKey("ana", "reviewer");
  ben = await server.createApiKey("ben", "reviewer");
  // A person's own statement is stored at once (a reviewer key is a person).
  const ingest = await server.call("POST", "/v1/memory/ingest", {
    key: ana,
    body: { content: stored, memoryType: "fact", source: "user" },
  });
  expect(ingest.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await provider?.close();
});

const verifyAs = async (key: string, text: string) => {
  const response = await server.call("POST", "/v1/verify", {
    key,
    body: { text, layers: ["fact-decomposition"], riskOverride: "high" },
  });
  expect(response.status).toBe(200);
  const layer = (
    response.body.layersRun as { layer: string; details: { verifiedFromMemory?: number } }[]
  ).find((each) => each.layer === "fact-decomposition");
  return { passed: response.body.passed as boolean, fromMemory: layer?.details.verifiedFromMemory };
};

describe("POST /v1/verify reads the caller's facts from the server's memory store", () => {
  it("confirms a fact the user stored", async () => {
    expect(await verifyAs(ana, stored)).toEqual({ passed: true, fromMemory: 1 });
  }, 60_000);

  it("does not confirm it for another user, nor a near miss for the owner", async () => {
    expect(await verifyAs(ben, stored)).toMatchObject({ passed: false, fromMemory: 0 });
    expect(await verifyAs(ana, stored.replace("2021", "2012"))).toMatchObject({
      passed: false,
      fromMemory: 0,
    });
  }, 60_000);
});
