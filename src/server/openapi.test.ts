import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeAccess } from "./roles.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";

interface Operation {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: { $ref?: string }; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> }>;
}
interface Document {
  info: { version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

let server: TestServer;
let document: Document;
let key: string;
let adminKey: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createApiKey("openapi-user");
  adminKey = await server.createApiKey("openapi-admin", "admin");
  document = (await server.call("GET", "/openapi.json")).body;
}, 180_000);

afterAll(async () => {
  await server?.close();
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe("the served OpenAPI document", () => {
  it("is valid OpenAPI 3.1 under swagger-parser, every $ref resolving", async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it("fails the same validator when a reference dangles", async () => {
    const broken = structuredClone(document);
    const check = broken.paths["/v1/check"]?.post?.requestBody?.content["application/json"];
    if (check?.schema === undefined) throw new Error("no /v1/check body schema");
    check.schema = { $ref: "#/$defs/Int" };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/\$defs/);
  });

  it("carries the package's version and a server", async () => {
    const manifest = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
    expect(document.info.version).toBe(manifest.version);
    expect(document.servers?.length).toBeGreaterThan(0);
  });

  it("names every operation once, and gives each an example answer", () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operations()) {
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2"));
      const examples = Object.values(success?.[1].content ?? {}).map((media) => media.example);
      expect(
        examples.filter((example) => example !== undefined),
        `${method} ${path}`,
      ).not.toEqual([]);
      if (operation.requestBody)
        expect(operation.requestBody.content["application/json"]?.example, `${method} ${path}`).toBeDefined();
    }
  });

  it("declares every path parameter and the review queue's limit", () => {
    for (const { path, operation } of operations())
      for (const [, name] of path.matchAll(/\{(\w+)\}/g))
        expect(
          operation.parameters?.some((p) => p.in === "path" && p.name === name),
          path,
        ).toBe(true);
    const pending = document.paths["/v1/review/pending"]?.get;
    expect(pending?.parameters?.map((p) => `${p.in}:${p.name}`)).toContain("query:limit");
  });

  it("has examples that match their schemas", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: "doc", components: document.components } as object);
    const media = operations().flatMap(({ path, method, operation }) => [
      ...Object.values(operation.requestBody?.content ?? {}).map((m) => ({ at: `${method} ${path}`, m })),
      ...Object.values(operation.responses).flatMap((r) =>
        Object.values(r.content ?? {}).map((m) => ({ at: `${method} ${path}`, m })),
      ),
    ]);
    let checked = 0;
    for (const { at, m } of media) {
      const target = m.schema?.$ref;
      if (target === undefined || m.example === undefined) continue;
      const validate = ajv.getSchema(`doc${target}`);
      if (!validate) throw new Error(`${at}: cannot resolve ${target}`);
      expect(validate(m.example), `${at}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it("has request examples the server accepts, answering with the documented fields", async () => {
    const mismatches: string[] = [];
    for (const { path, method, operation } of operations()) {
      const example = operation.requestBody?.content["application/json"]?.example;
      if (example === undefined || path.includes("{")) continue;
      const needsAdmin = routeAccess[`${method.toUpperCase()} ${path}`] === "admin";
      const response = await server.call(method.toUpperCase(), path, {
        key: needsAdmin ? adminKey : key,
        body: example,
      });
      // This server has no evidence store: the citations route answers with its documented 502.
      if (path === "/v1/citations/verify" && response.status === 502) continue;
      const documented = operation.responses[String(response.status)]?.content?.["application/json"]?.example;
      const missing =
        response.status >= 300 || documented === undefined
          ? ["(status)"]
          : Object.keys(documented as object).filter((field) => !(field in response.body));
      if (missing.length > 0)
        mismatches.push(
          `${method} ${path} ${response.status}: ${missing} in ${JSON.stringify(response.body)}`,
        );
    }
    expect(mismatches).toEqual([]);
  });
});

describe("a client generated from the document", () => {
  // The scratch project sits inside the repository so the generated code resolves openapi-fetch from it.
  const scratchRoot = join(import.meta.dirname, "../../.tmp-openapi-client");
  let scratch: string;

  beforeAll(async () => {
    await mkdir(scratchRoot, { recursive: true });
    scratch = await mkdtemp(join(scratchRoot, "client-"));
    const types = astToString(await openapiTS(structuredClone(document) as never));
    await writeFile(join(scratch, "api.d.ts"), types);
  }, 60_000);

  afterAll(async () => {
    await rm(scratchRoot, { recursive: true, force: true });
  });

  const typeErrors = async (body: string): Promise<string[]> => {
    const file = join(scratch, `client-${Math.random().toString(36).slice(2)}.ts`);
    await writeFile(
      file,
      `import createClient from "openapi-fetch";
import type { paths } from "./api.js";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:8080" });
export const call = async () => {
${body}
};
`,
    );
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  };

  it("type-checks calls that follow the document", async () => {
    expect(
      await typeErrors(`
  const checked = await client.POST("/v1/check", { body: { text: "a", sources: ["b"] } });
  const passed: boolean | undefined = checked.data?.passed;
  const pending = await client.GET("/v1/review/pending", { params: { query: { limit: 10 } } });
  await client.POST("/v1/review/{queueId}/reject", { params: { path: { queueId: "q" } }, body: { reason: "no" } });
  return [passed, pending.response.status];`),
    ).toEqual([]);
  }, 60_000);

  it("refuses a call that does not", async () => {
    const errors = await typeErrors(`  await client.POST("/v1/check", { body: { txt: "a" } });`);
    expect(errors.join("\n")).toMatch(/txt|text/);
  }, 60_000);
});
