import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../model/errors.js";
import { resolveSettings, settingsFromEnv, settingsFromFile } from "./config-sources.js";

describe("configuration sources", () => {
  it("reads settings from the environment", () => {
    const settings = settingsFromEnv({
      VERACITY_STRICT: "true",
      VERACITY_MAX_CONCURRENT_LAYERS: "5",
      VERACITY_TIMEOUT_SEMANTIC_ENTROPY: "2500",
      VERACITY_DISABLED_LAYERS: "nli, self-consistency",
      VERACITY_FALLBACK_RISK: "high",
    });
    expect(settings).toEqual({
      strict: true,
      maxConcurrentLayers: 5,
      layerTimeouts: { "semantic-entropy": 2500 },
      enabledLayers: { nli: false, "self-consistency": false },
      fallbackRiskLevel: "high",
    });
  });

  it.each([
    [{ VERACITY_MAX_CONCURRENT_LAYERS: "lots" }, /VERACITY_MAX_CONCURRENT_LAYERS must be a positive number/],
    [{ VERACITY_FALLBACK_RISK: "extreme" }, /invalid VERACITY_\* settings/],
    [{ VERACITY_DISABLED_LAYERS: "vibes" }, /invalid VERACITY_\* settings/],
    [{ VERACITY_SOURCE_CACHE_ENTRIES: "-1" }, /sourceCache\.entries/],
    [{ VERACITY_SOURCE_CACHE_CHARACTERS: "2.5" }, /sourceCache\.characters/],
    [{ VERACITY_SOURCE_CACHE_CHARACTERS: "" }, /sourceCache\.characters/],
    [{ VERACITY_SOURCE_CACHE_ENTRIES: "many" }, /sourceCache\.entries/],
  ])("refuses bad environment values with a ConfigError: %j", (env, message) => {
    expect(() => settingsFromEnv(env)).toThrow(ConfigError);
    expect(() => settingsFromEnv(env)).toThrow(message);
  });

  it("reads a file and refuses unknown keys", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-config-"));
    await writeFile(
      join(dir, "good.json"),
      JSON.stringify({
        profiles: { low: { layersToRun: ["nli"], minConfidence: 0.6, maxLatencyMs: 500, maxCost: 0.01 } },
        maxClaims: 50,
      }),
    );
    await writeFile(join(dir, "typo.json"), JSON.stringify({ maxClaim: 50 }));
    expect((await settingsFromFile(join(dir, "good.json"))).maxClaims).toBe(50);
    await expect(settingsFromFile(join(dir, "typo.json"))).rejects.toThrow(/maxClaim/);
    await expect(settingsFromFile(join(dir, "missing.json"))).rejects.toThrow(/cannot read configuration/);
  });

  it("merges defaults, file, environment and code in that order, per key", () => {
    const settings = resolveSettings(
      { layerTimeouts: { nli: 1000, grounding: 50 }, strict: true },
      { layerTimeouts: { nli: 2000 } },
      { strict: false },
    );
    expect(settings.layerTimeouts.nli).toBe(2000);
    expect(settings.layerTimeouts.grounding).toBe(50);
    expect(settings.layerTimeouts["multi-source"]).toBe(20_000);
    expect(settings.strict).toBe(false);
    expect(settings.profiles.critical.layersToRun).toHaveLength(5);
  });

  it("sizes the layers' caches of single sources from the file or the environment, one bound at a time", async () => {
    expect(resolveSettings().sourceCache).toEqual({ entries: 2_048, characters: 2_000_000 });
    expect(settingsFromEnv({ VERACITY_SOURCE_CACHE_ENTRIES: "0" }).sourceCache).toEqual({ entries: 0 });
    const dir = await mkdtemp(join(tmpdir(), "veracity-config-"));
    await writeFile(join(dir, "cache.json"), JSON.stringify({ sourceCache: { characters: 8_000_000 } }));
    await writeFile(join(dir, "bad.json"), JSON.stringify({ sourceCache: { entries: 10, size: 3 } }));
    const fromFile = await settingsFromFile(join(dir, "cache.json"));
    const settings = resolveSettings(fromFile, settingsFromEnv({ VERACITY_SOURCE_CACHE_ENTRIES: "8192" }));
    expect(settings.sourceCache).toEqual({ entries: 8_192, characters: 8_000_000 });
    await expect(settingsFromFile(join(dir, "bad.json"))).rejects.toThrow(/sourceCache\.size/);
  });
});
