import { Hono } from "hono";
import { recordResultDetails } from "../../metrics/record.js";
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
    const result = await deps.verifier.runLayer("citations", request.text, undefined, request.sources ?? []);
    // Counted like the citations of a full verification: by type, by failure reason, uncited statements.
    if (deps.veracityMetrics !== undefined)
      recordResultDetails(deps.veracityMetrics, { layersRun: [result] });
    return context.json(result);
  });
