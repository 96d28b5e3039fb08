import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlatt } from "../calibration/platt.js";
import { isEvidenceLayer } from "../model/layer-name.js";
import { openSqlClient } from "../storage/open.js";
import {
  type ChatRequestBody,
  factCheckAnswer,
  openAIChatCompletion,
  type ProviderServer,
  startProviderServer,
} from "../testing/index.js";
import { type RunningServer, startServer } from "./start.js";
import { capturedLogger } from "./testing/test-server.js";

/**
 * Periodic recalibration through the HTTP surface: reviewers record outcomes, a refit (on the schedule or
 * asked by an admin) changes the Platt model a model-backed layer's score goes through in later verifications,
 * is recorded in the audit trail, and survives a restart.
 */
let provider: ProviderServer;
let directory: string;

const env = () => ({ OPENAI_API_KEY: "sk-recalibration-test", OPENAI_BASE_URL: provider.openAIBaseUrl });
const start = (intervalMs: number) =>
  startServer({
    port: 0,
    warmUpMs: 0,
    host: "127.0.0.1",
    database: directory,
    logger: capturedLogger().logger,
    model: "openai:gpt-4o-mini",
    calibrationUpdateIntervalMs: intervalMs,
    env: env(),
  });

const request = { text: "Water boils at 100 degrees Celsius at sea level.", riskOverride: "medium" };

const call = async (server: RunningServer, key: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

interface LayerRun {
  readonly layer: string;
  readonly score: number;
  readonly details: { readonly rawScore: number };
}
const modelLayerOf = (result: Record<string, unknown>): LayerRun => {
  const layer = (result.layersRun as LayerRun[]).find((each) => !isEvidenceLayer(each.layer as never));
  if (layer === undefined)
    throw new Error(`no model-backed layer ran: ${JSON.stringify(result).slice(0, 500)}`);
  return layer;
};

/**
 * Outcomes that say the layer's high raw scores were wrong and its low ones right: a refit on them must turn
 * the map around (a > 0), so a high raw score comes out as a low confidence.
 */
const invertedOutcomes = (layer: string) =>
  Array.from({ length: 120 }, (_, index) => {
    const rawScore = (index % 60) / 60;
    return { layer, rawScore, supported: rawScore < 0.5, verificationId: `case-${index}` };
  });

beforeAll(async () => {
  provider = await startProviderServer({
    respond: (request) =>
      openAIChatCompletion(factCheckAnswer(request.body as ChatRequestBody, "supported", "well known")),
  });
  directory = await mkdtemp(join(tmpdir(), "veracity-recalibration-"));
}, 60_000);

afterAll(async () => {
  await provider?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

describe("periodic recalibration from reviewed outcomes", () => {
  let layer: LayerRun;
  let refitModel: { a: number; b: number };

  it("refits on request from reviewed outcomes, and later verifications use the refitted model", async () => {
    const server = await start(0);
    try {
      const agent = await server.createApiKey("bot", "agent");
      const reviewer = await server.createApiKey("rita", "reviewer");
      const admin = await server.createApiKey("ada", "admin");
      const before = await call(server, agent, "POST", "/v1/verify", request);
      expect(before.status).toBe(200);
      layer = modelLayerOf(before.body);
      expect(layer.details.rawScore).toBeGreaterThan(0.5);

      // Only a person records outcomes, and only an admin refits.
      const outcomes = { outcomes: invertedOutcomes(layer.layer) };
      expect((await call(server, agent, "POST", "/v1/calibration/outcomes", outcomes)).status).toBe(403);
      const recorded = await call(server, reviewer, "POST", "/v1/calibration/outcomes", outcomes);
      expect(recorded).toEqual({ status: 201, body: { recorded: 120 } });
      expect((await call(server, reviewer, "POST", "/v1/calibration/refit", {})).status).toBe(403);
      // Evidence layers are not refitted from outcomes: naming one is a 400.
      const evidence = await call(server, reviewer, "POST", "/v1/calibration/outcomes", {
        outcomes: [{ layer: "grounding", rawScore: 0.5, supported: true }],
      });
      expect(evidence.status).toBe(400);

      const refit = await call(server, admin, "POST", "/v1/calibration/refit", {
        reason: "first outcomes in",
      });
      expect(refit.status).toBe(200);
      expect(refit.body.actor).toBe("ada");
      const refitted = refit.body.refitted as { layer: string; model: { a: number; b: number } }[];
      expect(refitted.map((each) => each.layer)).toEqual([layer.layer]);
      refitModel = (refitted[0] as { model: { a: number; b: number } }).model;
      expect(refitModel.a).toBeGreaterThan(0);

      const after = await call(server, agent, "POST", "/v1/verify", request);
      const rerun = modelLayerOf(after.body);
      expect(rerun.details.rawScore).toBe(layer.details.rawScore);
      expect(rerun.score).toBeCloseTo(applyPlatt(refitModel, rerun.details.rawScore), 10);
      expect(rerun.score).toBeLessThan(0.5);
      expect(rerun.score).not.toBeCloseTo(layer.score, 3);

      const status = await call(server, reviewer, "GET", "/v1/calibration");
      expect(status.body.models).toEqual({ [layer.layer]: refitModel });
      expect((status.body.lastRefit as { actor: string }).actor).toBe("ada");
    } finally {
      await server.close();
    }
  }, 120_000);

  it("records each refit in the audit trail, and a restarted server verifies with the saved refit", async () => {
    const sql = await Effect.runPromise(openSqlClient(directory));
    const entries = await Effect.runPromise(
      sql.query<{ actor: string; metadata_json: string }>(
        "SELECT actor, metadata_json FROM veracity_audit_log WHERE operation = 'calibration.refit'",
      ),
    );
    await Effect.runPromise(sql.close);
    expect(entries.map((entry) => entry.actor)).toEqual(["ada"]);
    expect(JSON.parse((entries[0] as { metadata_json: string }).metadata_json)).toMatchObject({
      outcomes: 120,
      refitted: [{ layer: layer.layer, model: refitModel }],
      reason: "first outcomes in",
    });

    const server = await start(0);
    try {
      const agent = await server.createApiKey("bot2", "agent");
      const result = await call(server, agent, "POST", "/v1/verify", request);
      const rerun = modelLayerOf(result.body);
      expect(rerun.score).toBeCloseTo(applyPlatt(refitModel, rerun.details.rawScore), 10);
      // The audit chain still verifies with the refit entry in it.
      const admin = await server.createApiKey("ada2", "admin");
      const chain = await call(server, admin, "GET", "/v1/audit/verify");
      expect(chain.body.intact).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("refits on its schedule once new outcomes arrive, and only then", async () => {
    const server = await start(200);
    try {
      const reviewer = await server.createApiKey("rita2", "reviewer");
      // Nothing new since the server started: the schedule's ticks refit nothing.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect((await call(server, reviewer, "GET", "/v1/calibration")).body.lastRefit).toBeUndefined();
      // Outcomes that agree with the raw scores this time: the scheduled refit turns the map back (a < 0).
      const agreeing = invertedOutcomes(layer.layer).map((outcome) => ({
        ...outcome,
        supported: !outcome.supported,
      }));
      await call(server, reviewer, "POST", "/v1/calibration/outcomes", { outcomes: agreeing });
      let lastRefit: { actor: string; refitted: { model: { a: number } }[] } | undefined;
      for (let attempt = 0; attempt < 100 && lastRefit === undefined; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        lastRefit = (await call(server, reviewer, "GET", "/v1/calibration")).body
          .lastRefit as typeof lastRefit;
      }
      expect(lastRefit?.actor).toBe("scheduler");
      // The fit sees both batches: the newer agreeing one and the older inverted one cancel out to a flat map.
      expect(Math.abs(lastRefit?.refitted[0]?.model.a ?? Number.NaN)).toBeLessThan(Math.abs(refitModel.a));
    } finally {
      await server.close();
    }
  }, 120_000);
});
