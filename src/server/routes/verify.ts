import { type Context, Hono } from "hono";
import type { Verifier } from "../../facade/create-verifier.js";
import { verifyPrepared } from "../../facade/prepared-answer.js";
import { verifyAs } from "../../facade/verify-as.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { CheckRequest, VerifyRequest } from "../schemas.js";
import { resolveSourceRefs } from "../sources/resolve-sources.js";

/** The verifier as the authenticated user's (see `verifyAs`). */
const forUser = (verifier: Verifier, userId: string): Verifier =>
  "verifyFor" in verifier
    ? { ...verifier, verify: (request) => verifyAs(verifier, userId, request) }
    : verifier;

const wantsLayerClaims = (value: string | undefined): boolean => value === "true" || value === "1";

/**
 * Decodes the body, verifies, records the verification in the audit trail and sends the answer. Each layer's
 * own claim findings are left out of `layersRun` unless `?layerClaims=true`, since the top-level `claims` merge
 * them; the answer is prepared where the verification ran (a worker thread for `/v1/check`).
 */
const verifyAndAnswer =
  (deps: ServerDeps, verifier: Verifier, schema: typeof VerifyRequest | typeof CheckRequest, route: string) =>
  async (context: Context<ServerEnv>) => {
    const request = await resolveSourceRefs(
      await decodeBody(context, schema),
      context.get("userId"),
      deps.sources,
    );
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
