import { Hono } from "hono";
import { VerificationRequest } from "../../model/request.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { CheckRequest } from "../schemas.js";

/** `POST /v1/verify` (every configured layer) and `POST /v1/check` (offline evidence layers only). */
export const verificationRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/verify", async (context) => {
      const request = await decodeBody(context, VerificationRequest);
      return context.json(await deps.verifier.verify(request));
    })
    .post("/check", async (context) => {
      const request = await decodeBody(context, CheckRequest);
      return context.json(await deps.checker.verify(request));
    });
