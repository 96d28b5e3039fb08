import { Hono } from "hono";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { CitationsVerifyRequest } from "../schemas.js";

/**
 * `POST /v1/citations/verify`: runs the citations layer (needs an evidence store: `veracity serve --evidence`).
 * Without one the layer cannot run and the answer is a 5xx problem, never a pass.
 */
export const citationRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>().post("/citations/verify", async (context) => {
    const request = await decodeBody(context, CitationsVerifyRequest);
    return context.json(
      await deps.verifier.runLayer("citations", request.text, undefined, request.sources ?? []),
    );
  });
