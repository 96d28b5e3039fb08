import { type Context, Hono } from "hono";
import type { Verifier, VerifierTools } from "../../facade/create-verifier.js";
import { verifyPrepared } from "../../facade/prepared-answer.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { CheckRequest, VerifyRequest } from "../schemas.js";

/**
 * The verifier as the authenticated user's: where it can verify on someone's behalf (`verifyFor`, the
 * in-process verifier), the fact memory reads that user's facts only; a worker pool reads no fact memory.
 */
const forUser = (verifier: Verifier, userId: string): Verifier => {
  const verifyFor = (verifier as Partial<VerifierTools>).verifyFor;
  return verifyFor === undefined
    ? verifier
    : { ...verifier, verify: (request) => verifyFor(userId, request) };
};

const wantsLayerClaims = (value: string | undefined): boolean => value === "true" || value === "1";

/**
 * Decodes the body, verifies, records the verification in the audit trail and sends the answer. Each layer's
 * own claim findings are left out of `layersRun` unless `?layerClaims=true`, since the top-level `claims` merge
 * them; the answer is prepared where the verification ran (a worker thread for `/v1/check`).
 */
const verifyAndAnswer =
  (deps: ServerDeps, verifier: Verifier, schema: typeof VerifyRequest | typeof CheckRequest, route: string) =>
  async (context: Context<ServerEnv>) => {
    const request = await decodeBody(context, schema);
    const layerClaims = wantsLayerClaims(context.req.query("layerClaims"));
    const answer = await verifyPrepared(forUser(verifier, context.get("userId")), request, { layerClaims });
    await deps.auditTrail?.verification(context.get("userId"), request, answer, route);
    return context.body(answer.body, 200, { "content-type": "application/json" });
  };

/** `POST /v1/verify` (every configured layer) and `POST /v1/check` (offline evidence layers only). */
export const verificationRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/verify", verifyAndAnswer(deps, deps.verifier, VerifyRequest, "/v1/verify"))
    .post("/check", verifyAndAnswer(deps, deps.checker, CheckRequest, "/v1/check"));
