import { Schema } from "effect";
import { Hono } from "hono";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ApiProblem } from "../middleware/problem/index.js";
import { runEffect } from "../run-effect.js";
import { SourceHash, SourceUploadRequest } from "../schemas.js";

const isHash = Schema.is(SourceHash);

const storeOf = (deps: ServerDeps) => {
  if (deps.sources === undefined) throw new ApiProblem(503, "not-configured", "this server keeps no sources");
  return deps.sources;
};

/**
 * `POST /v1/sources`: keeps a source for the caller and answers its hash, which `sourceRefs` of `/v1/verify`
 * and `/v1/check` name instead of sending the text again. `GET /v1/sources/{hash}`: whether the caller has it.
 */
export const sourceRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/sources", async (context) => {
      const { text } = await decodeBody(context, SourceUploadRequest);
      const stored = await runEffect(storeOf(deps).put(context.get("userId"), text));
      return context.json(stored, 201);
    })
    .get("/sources/:hash", async (context) => {
      const hash = context.req.param("hash");
      if (!isHash(hash))
        throw new ApiProblem(
          400,
          "invalid-hash",
          "a source hash is 64 lower-case hex characters",
          {},
          "hash",
        );
      const found = await runEffect(storeOf(deps).get(context.get("userId"), [hash]));
      const text = found.get(hash);
      if (text === undefined)
        throw new ApiProblem(404, "source-not-found", `no stored source with hash ${hash}`);
      return context.json({ hash, chars: text.length });
    });
