import { Hono } from "hono";
import { VerificationRequest } from "../../model/request.js";
import type { VerificationResult } from "../../model/result.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { CheckRequest } from "../schemas.js";

/**
 * The result as sent: each layer's own claim findings are left out of `layersRun` unless `?layerClaims=true`,
 * since the top-level `claims` merge them (verdicts, issues and evidence of every layer). That halves a typical
 * answer's response.
 */
const asSent = (result: VerificationResult, layerClaims: boolean): VerificationResult =>
  layerClaims
    ? result
    : { ...result, layersRun: result.layersRun.map(({ claims: _claims, ...layer }) => layer) };

const wantsLayerClaims = (value: string | undefined): boolean => value === "true" || value === "1";

/** `POST /v1/verify` (every configured layer) and `POST /v1/check` (offline evidence layers only). */
export const verificationRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/verify", async (context) => {
      const request = await decodeBody(context, VerificationRequest);
      const result = await deps.verifier.verify(request);
      await deps.auditTrail?.verification(context.get("userId"), request, result, "/v1/verify");
      return context.json(asSent(result, wantsLayerClaims(context.req.query("layerClaims"))));
    })
    .post("/check", async (context) => {
      const request = await decodeBody(context, CheckRequest);
      const result = await deps.checker.verify(request);
      await deps.auditTrail?.verification(context.get("userId"), request, result, "/v1/check");
      return context.json(asSent(result, wantsLayerClaims(context.req.query("layerClaims"))));
    });
