import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { configSchemaPath, configSchemaText } from "../scripts/write-config-schema.js";
import { readConfigFile } from "../src/assembly/config-file.js";
import { readServerConfigFile } from "../src/server/config.js";

const example = resolve(import.meta.dirname, "../examples/veracity.yaml");

const validator = async () => {
  const schema = JSON.parse(await readFile(configSchemaPath, "utf8")) as object;
  return new Ajv({ strict: true, allErrors: true }).compile(schema);
};

describe("the configuration file's JSON Schema (schemas/veracity.config.schema.json)", () => {
  it("is the one generated from the Effect Schema (npm run schema:update rewrites it)", async () => {
    expect(await readFile(configSchemaPath, "utf8")).toBe(configSchemaText());
  });

  it("accepts the example configuration, which the loader reads too", async () => {
    const validate = await validator();
    const valid = validate(parseYaml(await readFile(example, "utf8")));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    const config = await readConfigFile(example);
    expect(config.settings.maxClaims).toBe(200);
    expect(config.model).toBe("openai:gpt-4o-mini");
    expect(config.server.port).toBe(8080);
  });

  it.each([
    ["a misspelt key", { maxClaim: 50 }],
    ["a port out of range", { server: { port: 70_000 } }],
    ["an unknown layer", { enabledLayers: { "no-such-layer": true } }],
    ["an unknown server key", { server: { prot: 8080 } }],
  ])("rejects %s, as the loader does", async (_, content) => {
    const validate = await validator();
    expect(validate(content)).toBe(false);
    const dir = await mkdtemp(join(tmpdir(), "veracity-config-"));
    await writeFile(join(dir, "config.json"), JSON.stringify(content));
    await expect(readConfigFile(join(dir, "config.json"))).rejects.toMatchObject({ _tag: "ConfigError" });
  });
});

describe("one configuration file for every command", () => {
  it("reads the same configuration from YAML and from JSON", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-config-"));
    const content = parseYaml(await readFile(example, "utf8")) as object;
    await writeFile(join(dir, "config.json"), JSON.stringify(content));
    expect(await readConfigFile(join(dir, "config.json"))).toEqual(await readConfigFile(example));
  });

  it("still reads a server file of the earlier format (server keys at the top level)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-config-"));
    await writeFile(join(dir, "server.yaml"), "port: 9000\ndatabase: memory://\nmodel: openai:gpt-4o-mini\n");
    const config = await readConfigFile(join(dir, "server.yaml"));
    expect(config.server).toEqual({ port: 9000, database: "memory://" });
    expect(config.settings).toEqual({});
    expect(await readServerConfigFile(join(dir, "server.yaml"))).toEqual({
      port: 9000,
      database: "memory://",
      model: "openai:gpt-4o-mini",
    });
  });

  it("gives the server its section and the shared keys", async () => {
    expect(await readServerConfigFile(example)).toMatchObject({
      port: 8080,
      verifyWorkers: 2,
      limits: { rateLimit: { requests: 1200, windowMs: 60_000 } },
      model: "openai:gpt-4o-mini",
    });
  });

  it("gives the server: section precedence over top-level server keys", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-config-"));
    await writeFile(join(dir, "both.yaml"), "port: 9000\nhost: 0.0.0.0\nserver:\n  port: 9100\n");
    expect((await readConfigFile(join(dir, "both.yaml"))).server).toEqual({ port: 9100, host: "0.0.0.0" });
  });
});
