import { describe, expect, it } from "vitest";
import { modelLayerProvider, modelLayersFor } from "./layer-provider.js";
import { layerInputOf } from "./shared/layer-input.js";

describe("modelLayersFor", () => {
  it("builds the five layers for a model string, with its key from the environment", async () => {
    const layers = await modelLayersFor("openai:gpt-4o-mini", { env: { OPENAI_API_KEY: "k" } });
    expect(layers.map((layer) => layer.name)).toEqual([
      "semantic-entropy",
      "fact-decomposition",
      "multi-source",
      "self-consistency",
      "nli",
    ]);
    expect(layers[1]?.readiness(layerInputOf("Water boils at 100 degrees Celsius."))).toEqual({
      ready: true,
    });
  });

  it("rejects with a ConfigError naming the missing key", async () => {
    await expect(modelLayersFor("anthropic:claude-3-5-haiku-latest", { env: {} })).rejects.toMatchObject({
      _tag: "ConfigError",
      key: "ANTHROPIC_API_KEY",
    });
  });

  it("without a model, returns layers that are not ready and say what to set", async () => {
    const provider = modelLayerProvider({ env: {} });
    const layers = await provider.layers({});
    expect(layers[0]?.readiness(layerInputOf("Water boils at 100 degrees Celsius."))).toEqual({
      ready: false,
      reason: expect.stringContaining("set VERACITY_MODEL or pass --model"),
    });
  });
});
