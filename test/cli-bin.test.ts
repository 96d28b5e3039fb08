import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "..");
const bin = resolve(repoRoot, "dist/cli/main.js");

// The built bin, as `npx veracity` runs it after `npm install` (npm test builds before running vitest).
describe.skipIf(!existsSync(bin))("the built veracity bin", () => {
  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8", input, timeout: 60_000 });

  it("checks the shipped example: exit 1 with an unsupported claim", () => {
    const result = run(["check", "examples/answer.md", "--source", "examples/source.md"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/UNSUPPORTED/);
  });

  it("exits 2 on a usage error, without a stack trace", () => {
    const result = run(["check"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/missing the answer file/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("is executable as a file, as a linked bin runs it", () => {
    expect(statSync(bin).mode & 0o111).toBe(0o111);
  });

  it("prints its version", () => {
    const result = run(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

/** Runs an ES module `script` in its own Node process at the repository's root, where `veracity` resolves. */
const runModule = (script: string, nodeOptions: readonly string[] = []) =>
  spawnSync(process.execPath, [...nodeOptions, "--input-type=module", "-e", script], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
  });

// What a user imports: the package by name, through its `exports` map (Node resolves the package itself).
describe.skipIf(!existsSync(resolve(repoRoot, "dist/index.js")))("the built package's public API", () => {
  // One process imports the package and every subpath it declares, and reports the kind of each export.
  let kinds: Record<string, Record<string, string>> | undefined;
  const exportKinds = (): Record<string, Record<string, string>> => {
    if (kinds !== undefined) return kinds;
    const result = runModule(
      `const { readFileSync } = await import("node:fs");
       const { exports } = JSON.parse(readFileSync("package.json", "utf8"));
       const report = {};
       for (const key of Object.keys(exports).filter((key) => key !== "./package.json")) {
         const specifier = key === "." ? "veracity" : "veracity/" + key.slice(2);
         const m = await import(specifier);
         report[specifier] = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v]));
       }
       process.stdout.write(JSON.stringify(report));`,
    );
    expect(result.stderr).toBe("");
    kinds = JSON.parse(result.stdout) as Record<string, Record<string, string>>;
    return kinds;
  };
  it("the root entry point stays small: at most 50 names (types included, see etc/veracity.api.md)", () => {
    const runtime = Object.keys(exportKinds().veracity ?? {});
    expect(runtime.length).toBeGreaterThan(10);
    expect(runtime.length).toBeLessThanOrEqual(50);
  });
  it.each([
    ["the Promise facade", "veracity", "createVerifier"],
    ["the assembled verifier", "veracity", "buildVerifier"],
    ["verification in worker threads", "veracity", "createWorkerPoolVerifier"],
    ["the correction loop", "veracity/correction", "runCorrectionLoop"],
    ["model mitigation", "veracity/mitigation", "makeModelMitigator"],
    ["mitigation by action", "veracity/mitigation", "applyMitigation"],
    ["Platt fitting", "veracity/calibration", "fitPlatt"],
    ["per-layer calibration fitting", "veracity/calibration", "fitLayerCalibrations"],
    ["the calibration store", "veracity/calibration", "makeCalibrationStore"],
    ["the metrics registry", "veracity/metrics", "makeVeracityMetrics"],
    ["the metrics subscriber", "veracity/metrics", "metricsSubscriber"],
    ["per-result metrics", "veracity/metrics", "recordResultDetails"],
    ["the audit log", "veracity/audit", "makeAuditLog"],
    ["audited verification", "veracity/audit", "withAuditTrail"],
    ["chain verification", "veracity/audit", "verifyAuditChain"],
    ["group commit", "veracity/audit", "makeGroupCommitAppender"],
    ["the Effect service", "veracity/verification", "makeVerificationAppLayer"],
    ["the numbers layer", "veracity/numbers", "makeNumbersLayer"],
    ["the grounding layer", "veracity/grounding", "makeGroundingLayer"],
    ["the model-backed layers", "veracity/model-backed", "makeModelLayers"],
    ["the AI SDK model port", "veracity/llm", "aiSdkModelPort"],
    ["the memory gate", "veracity/memory", "createMemoryGate"],
    ["claim segmentation", "veracity/text", "segmentClaims"],
    ["the SQL client", "veracity/storage", "openSqlClient"],
  ])("exports %s from %s (%s)", (_, specifier, name) => {
    expect(exportKinds()[specifier]?.[name]).toBe("function");
  });
});

describe.skipIf(!existsSync(resolve(repoRoot, "dist/index.js")))("the built worker pool", () => {
  it("verifies in a worker thread of the compiled package (no TypeScript loader)", () => {
    const script = `
      const { createWorkerPoolVerifier } = await import("veracity");
      const pool = createWorkerPoolVerifier({ workers: 1 });
      const sources = ["The bridge opened in 1932 and is 503 metres long."];
      const results = await Promise.all([
        pool.verify({ text: "The bridge opened in 1932.", sources }),
        pool.verify({ text: "The bridge opened in 1958 and is 800 metres long.", sources }),
      ]);
      await pool.close();
      process.stdout.write(JSON.stringify(results.map((result) => result.passed)));`;
    const result = runModule(script);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([true, false]);
  });

  it("starts its workers when the process runs with V8 heap options a worker refuses", () => {
    // Node refuses --max-old-space-size and --max-semi-space-size in a worker's execArgv; a server started with
    // them must still get its workers.
    const script = `
      const { createWorkerPoolVerifier } = await import("veracity");
      const pool = createWorkerPoolVerifier({ workers: 1 });
      const result = await pool.verify({ text: "The bridge opened in 1932.", sources: ["The bridge opened in 1932."] });
      await pool.close();
      process.stdout.write(JSON.stringify(result.passed));`;
    const result = runModule(script, ["--max-old-space-size=512", "--max-semi-space-size=32"]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toBe(true);
  });
});
