import { Hono } from "hono";
import { auditEntryForIngestion } from "../../audit/entries-for.js";
import { sourcedByPrincipal } from "../../memory/tiers/principal-source.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { MemoryIngestRequest, MemorySearchRequest } from "../schemas.js";

/** `POST /v1/memory/ingest` and `POST /v1/memory/search`, always on behalf of the authenticated user. */
export const memoryRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/memory/ingest", async (context) => {
      const sent = await decodeBody(context, MemoryIngestRequest);
      const userId = context.get("userId");
      // The trust tier comes from the key, not the body: an agent's key cannot label its own claims as the
      // user's or the documentation's to skip review; they are judged as the agent's.
      const request = sourcedByPrincipal(context.get("role") === "agent" ? "agent" : "person", sent);
      const outcome = await deps.memory.ingest({ ...request, userId });
      await deps.auditTrail?.committed(auditEntryForIngestion(userId, { ...request, userId }, outcome));
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
