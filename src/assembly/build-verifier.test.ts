import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEvidenceStore } from "../checks/citations/store/evidence-store.js";
import { makeGroundingLayer } from "../checks/grounding/index.js";
import { makeTestRepository, type TestRepository } from "../testing/git-repository.js";
import { buildVerifier } from "./build-verifier.js";

let scratch: string;
let repository: TestRepository;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "veracity-build-verifier-"));
  repository = await makeTestRepository({ "docs/adr/0001-storage.md": "# 1. Storage\n" });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await rm(repository.directory, { recursive: true, force: true });
});

/** The built verifier's pool configuration and offline flag, the verifier closed. */
const poolOf = async (...args: Parameters<typeof buildVerifier>) => {
  const built = await buildVerifier(...args);
  await built.close();
  return { poolConfig: built.poolConfig, offlineOnly: built.offlineOnly };
};

describe("buildVerifier's configuration for a worker pool", () => {
  it("carries the settings and calibration in force, and no citations, for the offline layers alone", async () => {
    const config = path.join(scratch, "strict.json");
    await writeFile(config, JSON.stringify({ strict: true, maxClaims: 321 }));
    const { poolConfig, offlineOnly } = await poolOf({ config }, {}, {});
    expect(offlineOnly).toBe(true);
    expect(poolConfig?.settings).toMatchObject({ strict: true, maxClaims: 321 });
    expect(poolConfig?.calibration).toEqual({});
    expect(poolConfig?.citations).toBeUndefined();
  });

  it("carries a repository's commits, decision records, issue tracker and Ethereum endpoint as plain data", async () => {
    const env = {
      VERACITY_ISSUES_URL: "http://127.0.0.1:9/repos/acme/app",
      VERACITY_ISSUES_TOKEN: "secret",
      VERACITY_ETH_RPC_URL: "http://127.0.0.1:9/rpc",
    };
    const { poolConfig, offlineOnly } = await poolOf({ repository: repository.directory }, {}, env);
    // Not offline only (the citations layer runs), but a worker can build the same layers.
    expect(offlineOnly).toBe(false);
    expect(poolConfig?.citations).toEqual({
      git: { repository: path.resolve(repository.directory) },
      adr: { directory: path.join(path.resolve(repository.directory), "docs/adr") },
      issues: { endpoint: env.VERACITY_ISSUES_URL, token: "secret" },
      rpcUrl: env.VERACITY_ETH_RPC_URL,
    });
    // It crosses a thread boundary: structured cloning keeps it whole.
    expect(structuredClone(poolConfig)).toEqual(poolConfig);
  });

  it("is absent when the verifier runs what a worker cannot build", { timeout: 60_000 }, async () => {
    // An evidence store (a real PGlite directory): its layer reads the database, which a worker does not open.
    const evidence = path.join(scratch, "evidence");
    await Effect.runPromise(
      Effect.acquireUseRelease(
        openEvidenceStore(evidence),
        () => Effect.void,
        (store) => Effect.ignore(store.close),
      ),
    );
    expect(await poolOf({ evidence }, {}, {})).toEqual({ poolConfig: undefined, offlineOnly: false });
    // A store that is not there is refused, never built as an empty one.
    const missingStore = path.join(scratch, "no-such-store");
    await expect(buildVerifier({ evidence: missingStore }, {}, {})).rejects.toThrow(/does not exist/);
    const withLayer = await poolOf({}, { extraLayers: [makeGroundingLayer()] }, {});
    expect(withLayer).toEqual({ poolConfig: undefined, offlineOnly: false });
    const withRiskModel = await poolOf(
      {},
      { riskModel: { classify: () => Effect.succeed("low" as const) } },
      {},
    );
    expect(withRiskModel).toEqual({ poolConfig: undefined, offlineOnly: false });
  });
});
