import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Effect, Layer } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifier } from "../facade/create-verifier.js";
import { LLMService, type LLMServiceShape } from "../llm/llm-service.js";
import type { ClaimFinding } from "../model/claim.js";
import type { LayerResult } from "../model/layer-result.js";
import type { MitigationAction } from "../model/mitigation.js";
import { ScriptedFailure, scriptedLLM } from "../testing/scripted-model.js";
import { Mitigator } from "./mitigator.js";
import { applyMitigation, ModelMitigatorLive, makeModelMitigator } from "./model-mitigator.js";

/**
 * A real record, copied into fixtures/ (see fixtures/SOURCE.md): BEGIN (google/BEGIN-dataset @ 6e65f0d, dev
 * set, TopicalChat, id begin_dev_tc:52, CC BY 4.0), labelled "not attributable". The grounding layer finds
 * its first sentence unsupported and its second supported by the (long) source.
 */
const record = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/begin_dev_tc_52.jsonl"), "utf8"),
) as { context: string; response: string };
const source = record.context;
const response = record.response;

let claims: readonly ClaimFinding[] = [];
let failedLayers: LayerResult[] = [];
const supported = () => claims.filter((claim) => claim.verdict === "supported");
const failing = () =>
  claims.filter((claim) => claim.verdict === "unsupported" || claim.verdict === "contradicted");
/** The failing layers with a moderate score, so the severity choice lands on the moderate action. */
const moderate = () => failedLayers.map((layer) => ({ ...layer, score: 0.35 }));

const llmOf = (script: Parameters<typeof scriptedLLM>[0]["script"]) => {
  const scripted = scriptedLLM({ script }, { retry: { maxRetries: 0 } });
  const llm = Effect.runSync(LLMService.pipe(Effect.provide(scripted.layer)));
  return { llm, model: scripted.model };
};

const apply = (
  llm: LLMServiceShape | undefined,
  action: MitigationAction,
  settings?: Parameters<typeof applyMitigation>[5],
) => Effect.runPromise(applyMitigation(llm, action, response, moderate(), claims, settings));

beforeAll(async () => {
  const verifier = await createVerifier({});
  try {
    const result = await verifier.verify({ text: response, sources: [source] });
    claims = result.claims;
    failedLayers = result.layersRun.filter((layer) => !layer.passed);
  } finally {
    await verifier.close();
  }
});

describe("mitigation on a real response", () => {
  it("starts from a verification with supported and failing claims", () => {
    expect(supported().length).toBeGreaterThan(0);
    expect(failing().length).toBeGreaterThan(0);
    expect(failedLayers.length).toBeGreaterThan(0);
  });

  it("regenerate: sends the model each failing claim with its problem and evidence, returns its rewrite", async () => {
    const rewrite = "BenJarvus Green-Ellis never fumbled the football in his NFL career.";
    const { llm, model } = llmOf({ fixed: rewrite });
    const mitigation = await apply(llm, "regenerate");
    expect(mitigation).toMatchObject({
      action: "regenerate",
      correctedText: rewrite,
      originalText: response,
    });
    const prompt = model.generateCalls()[0]?.prompt ?? "";
    for (const claim of failing()) {
      expect(prompt).toContain(claim.text);
      for (const issue of claim.issues) expect(prompt).toContain(issue.message);
    }
    expect(prompt).toContain(response);
  });

  it("decompose-and-retry: rewrites failing claims one by one and keeps every supported sentence intact", async () => {
    const { llm, model } = llmOf({ fixed: "REMOVE" });
    const mitigation = await apply(llm, "decompose-and-retry");
    expect(mitigation.action).toBe("decompose-and-retry");
    expect(model.generateCalls()).toHaveLength(failing().length);
    for (const claim of supported()) expect(mitigation.correctedText).toContain(claim.text);
    for (const claim of failing()) expect(mitigation.correctedText).not.toContain(claim.text);
  });

  it("decompose-and-retry: overlapping failing claims of two layers are rewritten once, never spliced", async () => {
    const text = "Alpha beta gamma. Delta epsilon.";
    const finding = (start: number, end: number): ClaimFinding =>
      ({
        ...failing()[0],
        text: text.slice(start, end),
        span: { start, end },
        verdict: "unsupported",
      }) as ClaimFinding;
    // "Alpha beta gamma." and its tail "beta gamma." both fail; "Delta epsilon." is supported.
    const overlapping = [
      finding(0, 17),
      finding(6, 17),
      { ...finding(18, 32), verdict: "supported" as const },
    ];
    const { llm, model } = llmOf({ fixed: "Alpha is a letter." });
    const mitigation = await Effect.runPromise(
      applyMitigation(llm, "decompose-and-retry", text, moderate(), overlapping),
    );
    expect(mitigation.correctedText).toBe("Alpha is a letter. Delta epsilon.");
    expect(model.generateCalls()).toHaveLength(1);
  });

  it("redact: removes the unsupported sentences, keeps every supported one intact and says what went", async () => {
    const mitigation = await apply(undefined, "redact");
    for (const claim of supported()) expect(mitigation.correctedText).toContain(claim.text);
    for (const claim of failing()) {
      expect(mitigation.correctedText).not.toContain(claim.text);
      expect(mitigation.reason).toContain(JSON.stringify(claim.text));
    }
    expect(mitigation.correctedText).toMatch(/unsupported statements? (was|were) removed\]$/);
  });

  it("request-sources: asks for a source for each failing statement", async () => {
    const mitigation = await apply(undefined, "request-sources");
    for (const claim of failing()) expect(mitigation.correctedText).toContain(claim.text.trim());
    expect(mitigation.correctedText).toMatch(/share a source/);
  });

  it("add-disclaimer and block-response use the configured texts", async () => {
    const settings = { disclaimer: "Unverified.", blockedReply: "No reliable answer." };
    const disclaimed = await apply(undefined, "add-disclaimer", settings);
    expect(disclaimed.correctedText).toBe(`${response}\n\nUnverified.`);
    expect((await apply(undefined, "block-response", settings)).correctedText).toBe("No reliable answer.");
  });

  it("flag-uncertain: marks each failing claim inline", async () => {
    const flagged = await apply(undefined, "flag-uncertain");
    expect(flagged.correctedText?.match(/\[(unverified|contradicted): /g)).toHaveLength(failing().length);
  });

  it.each(["regenerate", "decompose-and-retry"] as const)(
    "%s degrades to flag-uncertain without a model and says so",
    async (action) => {
      const mitigation = await apply(undefined, action);
      expect(mitigation.action).toBe("flag-uncertain");
      expect(mitigation.reason).toContain(`${action} needs a model`);
    },
  );

  it("degrades when the model fails, never returning the failed text as corrected", async () => {
    const { llm } = llmOf({ fixed: new ScriptedFailure({ status: 400, message: "bad request" }) });
    const mitigation = await apply(llm, "regenerate");
    expect(mitigation.action).toBe("flag-uncertain");
    expect(mitigation.reason).toMatch(/regenerate failed/);
  });

  it.each([
    [0.1, "block-response"],
    [0.35, "regenerate"],
    [0.6, "add-disclaimer"],
  ] as const)("chooses by severity: worst score %s gives %s", async (score, action) => {
    const { llm } = llmOf({ fixed: "A rewrite." });
    const mitigator = makeModelMitigator(llm);
    const layers = failedLayers.map((layer) => ({ ...layer, score }));
    expect((await Effect.runPromise(mitigator.mitigate(response, layers, claims))).action).toBe(action);
  });
});

describe("the mitigator option of createVerifier", () => {
  let verifier: Awaited<ReturnType<typeof createVerifier>>;
  const { llm, model } = llmOf({ fixed: "BenJarvus Green-Ellis never fumbled in his NFL career." });
  beforeAll(async () => {
    verifier = await createVerifier({
      mitigator: makeModelMitigator(llm, {
        disclaimer: "d",
        blockedReply: "b",
        moderateAction: "regenerate",
      }),
    });
  });
  afterAll(async () => verifier.close());

  it("uses the given mitigator in place of the offline one", async () => {
    const result = await verifier.verify({ text: response, sources: [source] });
    expect(result.passed).toBe(false);
    // The record's grounding score is below 0.2: the given mitigator blocks with its own configured reply
    // ("b", which the offline mitigator never gives), and blocking asks no model.
    expect(result.mitigations).toMatchObject([{ action: "block-response", correctedText: "b" }]);
    expect(result.mitigations[0]?.reason).toMatch(/critical verification failure in \[grounding\]/);
    expect(model.generateCalls()).toHaveLength(0);
  });
});

describe("ModelMitigatorLive", () => {
  it("builds the Mitigator from the app's LLMService", async () => {
    const scripted = scriptedLLM({ script: { fixed: "Rewritten." } });
    const layer = ModelMitigatorLive().pipe(Layer.provide(scripted.layer));
    const failed: LayerResult = { layer: "grounding", passed: false, score: 0.3, latencyMs: 1, details: {} };
    const mitigation = await Effect.runPromise(
      Effect.flatMap(Mitigator, (mitigator) => mitigator.mitigate("Some text.", [failed], [])).pipe(
        Effect.provide(layer),
      ),
    );
    expect(mitigation).toMatchObject({ action: "regenerate", correctedText: "Rewritten." });
    expect(scripted.model.generateCalls()[0]?.prompt).toContain("failed verification (grounding)");
  });
});
