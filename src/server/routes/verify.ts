import { Hono } from "hono";
import type { Verifier } from "../../facade/create-verifier.js";
import { type AnswerOptions, type PreparedAnswer, prepareAnswer } from "../../facade/prepared-answer.js";
import { VerificationRequest } from "../../model/request.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { CheckRequest } from "../schemas.js";

/**
 * The answer as sent: each layer's own claim findings are left out of `layersRun` unless `?layerClaims=true`,
 * since the top-level `claims` merge them (verdicts, issues and evidence of every layer). That halves a typical
 * answer's response. It is prepared where the verification ran (a worker thread for `/v1/check`).
 */
const verifyPrepared = (
  verifier: Verifier,
  request: VerificationRequest,
  options: AnswerOptions,
): Promise<PreparedAnswer> =>
  verifier.verifyPrepared?.(request, options) ??
  verifier.verify(request).then((result) => prepareAnswer(result, options));

const wantsLayerClaims = (value: string | undefined): boolean => value === "true" || value === "1";

/** `POST /v1/verify` (every configured layer) and `POST /v1/check` (offline evidence layers only). */
export const verificationRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/verify", async (context) => {
      const request = await decodeBody(context, VerificationRequest);
      const layerClaims = wantsLayerClaims(context.req.query("layerClaims"));
      const answer = await verifyPrepared(deps.verifier, request, { layerClaims });
      await deps.auditTrail?.verification(context.get("userId"), request, answer, "/v1/verify");
      return context.body(answer.body, 200, { "content-type": "application/json" });
    })
    .post("/check", async (context) => {
      const request = await decodeBody(context, CheckRequest);
      const layerClaims = wantsLayerClaims(context.req.query("layerClaims"));
      const answer = await verifyPrepared(deps.checker, request, { layerClaims });
      await deps.auditTrail?.verification(context.get("userId"), request, answer, "/v1/check");
      return context.body(answer.body, 200, { "content-type": "application/json" });
    });
