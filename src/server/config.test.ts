import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readServerConfigFile, resolveServerConfig } from "./config.js";

describe("server configuration", () => {
  it("uses the defaults: 127.0.0.1, port 8080, PGlite in .veracity/data", () => {
    const config = resolveServerConfig({}, {}, {}, "/srv/app");
    expect(config).toMatchObject({ host: "127.0.0.1", port: 8080, database: "/srv/app/.veracity/data" });
    expect(config.limits.rateLimit.requests).toBe(1_200);
  });

  it("lets flags win over the environment and the environment over the file", () => {
    const file = { port: 7000, host: "0.0.0.0", database: "/data/file", limits: { maxBodyBytes: 4096 } };
    const env = { VERACITY_PORT: "7100", DATABASE_URL: "postgres://db/veracity" };
    expect(resolveServerConfig({}, {}, file, "/")).toMatchObject({
      port: 7000,
      host: "0.0.0.0",
      database: "/data/file",
    });
    expect(resolveServerConfig({}, env, file, "/")).toMatchObject({
      port: 7100,
      database: "postgres://db/veracity",
    });
    const flagged = resolveServerConfig({ port: "0", db: "memory://", maxBodyBytes: "2048" }, env, file, "/");
    expect(flagged).toMatchObject({ port: 0, database: "memory://" });
    expect(flagged.limits.maxBodyBytes).toBe(2048);
  });

  it("takes the verification workers from flags, the environment or the file, else leaves the default", () => {
    expect(resolveServerConfig({}, {}, {}, "/").verifyWorkers).toBeUndefined();
    expect(resolveServerConfig({}, {}, { verifyWorkers: 3 }, "/").verifyWorkers).toBe(3);
    expect(
      resolveServerConfig({}, { VERACITY_VERIFY_WORKERS: "0" }, { verifyWorkers: 3 }, "/").verifyWorkers,
    ).toBe(0);
    expect(
      resolveServerConfig({ verifyWorkers: "2" }, { VERACITY_VERIFY_WORKERS: "0" }, {}, "/").verifyWorkers,
    ).toBe(2);
  });

  it("takes the large-request threshold from flags, the environment or the file, else leaves the default", () => {
    expect(resolveServerConfig({}, {}, {}, "/").largeRequestChars).toBeUndefined();
    expect(resolveServerConfig({}, {}, { largeRequestChars: 500_000 }, "/").largeRequestChars).toBe(500_000);
    const env = { VERACITY_LARGE_REQUEST_CHARS: "0" };
    expect(resolveServerConfig({}, env, { largeRequestChars: 500_000 }, "/").largeRequestChars).toBe(0);
    expect(resolveServerConfig({ largeRequestChars: "2000000" }, env, {}, "/").largeRequestChars).toBe(
      2_000_000,
    );
  });

  it("takes the memory gate's warm-up from flags, the environment or the file, else leaves the default", () => {
    expect(resolveServerConfig({}, {}, {}, "/").warmUpMs).toBeUndefined();
    expect(resolveServerConfig({}, {}, { warmUpMs: 500 }, "/").warmUpMs).toBe(500);
    const env = { VERACITY_WARM_UP_MS: "0" };
    expect(resolveServerConfig({}, env, { warmUpMs: 500 }, "/").warmUpMs).toBe(0);
    expect(resolveServerConfig({ warmUpMs: "1500" }, env, {}, "/").warmUpMs).toBe(1_500);
  });

  it("takes the connection and in-flight body limits from flags or the file, else the defaults", async () => {
    expect(resolveServerConfig({}, {}, {}, "/").limits).toMatchObject({
      maxConnections: 10_000,
      maxConnectionsPerAddress: 1_000,
      maxBodyBytesInFlight: 256 * 1024 * 1024,
      maxBodyBytesInFlightPerKey: 64 * 1024 * 1024,
      maxRequestsInFlightPerKey: 64,
      headersTimeoutMs: 10_000,
    });
    const file = {
      limits: {
        maxConnections: 50,
        maxConnectionsPerAddress: 5,
        maxBodyBytesInFlight: 8_388_608,
        maxBodyBytesInFlightPerKey: 4_194_304,
        maxRequestsInFlightPerKey: 16,
        headersTimeoutMs: 2_000,
      },
    };
    expect(resolveServerConfig({}, {}, file, "/").limits).toMatchObject(file.limits);
    expect(
      resolveServerConfig(
        {
          maxConnections: "7",
          maxConnectionsPerAddress: "3",
          maxBodyBytesInFlight: "65536",
          maxBodyBytesInFlightPerKey: "32768",
          maxRequestsInFlightPerKey: "8",
          headersTimeoutMs: "500",
        },
        {},
        file,
        "/",
      ).limits,
    ).toMatchObject({
      maxConnections: 7,
      maxConnectionsPerAddress: 3,
      maxBodyBytesInFlight: 65_536,
      maxBodyBytesInFlightPerKey: 32_768,
      maxRequestsInFlightPerKey: 8,
      headersTimeoutMs: 500,
    });
    // The file's schema knows every key (an unknown key is refused).
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-config-"));
    await writeFile(
      path.join(dir, "limits.yaml"),
      "limits:\n  maxConnections: 50\n  maxConnectionsPerAddress: 5\n  maxBodyBytesInFlight: 8388608\n  maxBodyBytesInFlightPerKey: 4194304\n  maxRequestsInFlightPerKey: 16\n  headersTimeoutMs: 2000\n",
    );
    expect(await readServerConfigFile(path.join(dir, "limits.yaml"))).toMatchObject(file);
  });

  it.each([
    [{ maxConnections: "0" }, {}],
    [{ maxConnectionsPerAddress: "0" }, {}],
    [{ maxBodyBytesInFlight: "1000" }, {}],
    [{ maxBodyBytesInFlightPerKey: "1000" }, {}],
    [{ maxRequestsInFlightPerKey: "0" }, {}],
    [{ headersTimeoutMs: "99" }, {}],
    [{ port: "70000" }, {}],
    [{ port: "eighty" }, {}],
    [{ rateLimit: "0" }, {}],
    [{ verifyWorkers: "-1" }, {}],
    [{}, { VERACITY_VERIFY_WORKERS: "65" }],
    [{ largeRequestChars: "-1" }, {}],
    [{}, { VERACITY_LARGE_REQUEST_CHARS: "a lot" }],
    [{ warmUpMs: "-5" }, {}],
    [{}, { VERACITY_WARM_UP_MS: "600001" }],
    [{}, { VERACITY_DB_SCHEMA: "Robert'); DROP TABLE" }],
  ])("refuses bad values %j %j with a ConfigError", (flags, env) => {
    expect(() => resolveServerConfig(flags, env, {}, "/")).toThrow(
      expect.objectContaining({ _tag: "ConfigError" }),
    );
  });

  it("takes one repository from the flag or the file, resolved against the working directory", async () => {
    expect(resolveServerConfig({}, {}, {}, "/srv/app").repositoryDir).toBeUndefined();
    expect(resolveServerConfig({}, {}, { repository: "../code" }, "/srv/app").repositoryDir).toBe(
      "/srv/code",
    );
    expect(
      resolveServerConfig({ repository: "." }, {}, { repository: "../code" }, "/srv/app").repositoryDir,
    ).toBe("/srv/app");
    // The shared top-level key of the configuration file reaches the server's view of it.
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-config-"));
    await writeFile(path.join(dir, "shared.yaml"), "repository: ../code\nserver:\n  port: 9001\n");
    expect(await readServerConfigFile(path.join(dir, "shared.yaml"))).toMatchObject({
      port: 9001,
      repository: "../code",
    });
  });

  it("reads YAML and JSON files and refuses unknown keys", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-config-"));
    await writeFile(
      path.join(dir, "a.yaml"),
      "port: 9000\nlimits:\n  rateLimit: { requests: 10, windowMs: 1000 }\n",
    );
    await writeFile(path.join(dir, "b.json"), JSON.stringify({ prot: 9000 }));
    expect(await readServerConfigFile(path.join(dir, "a.yaml"))).toMatchObject({
      port: 9000,
      limits: { rateLimit: { requests: 10, windowMs: 1000 } },
    });
    await expect(readServerConfigFile(path.join(dir, "b.json"))).rejects.toMatchObject({
      _tag: "ConfigError",
    });
  });
});
