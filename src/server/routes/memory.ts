import { Hono } from "hono";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { MemoryIngestRequest, MemorySearchRequest } from "../schemas.js";

/** `POST /v1/memory/ingest` and `POST /v1/memory/search`, always on behalf of the authenticated user. */
export const memoryRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/memory/ingest", async (context) => {
      const request = await decodeBody(context, MemoryIngestRequest);
      const userId = context.get("userId");
      const outcome = await deps.memory.ingest({ ...request, userId });
      await deps.auditTrail?.committed("ingestion", userId, { ...request, userId }, outcome);
      return context.json(
        outcome,
        outcome.status === "blocked" ? 422 : outcome.status === "queued" ? 202 : 201,
      );
    })
    .post("/memory/search", async (context) => {
      const request = await decodeBody(context, MemorySearchRequest);
      const hits = await deps.memory.search(context.get("userId"), request.query, request.limit);
      return context.json({ hits });
    });
