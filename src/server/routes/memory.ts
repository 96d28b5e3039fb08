import { Hono } from "hono";
import { auditEntryForIngestion } from "../../audit/entries-for.js";
import { defaultTrustedSources } from "../../memory/tiers/tier-inputs.js";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ApiProblem } from "../middleware/problem/index.js";
import { MemoryIngestRequest, MemorySearchRequest } from "../schemas.js";

/** `POST /v1/memory/ingest` and `POST /v1/memory/search`, always on behalf of the authenticated user. */
export const memoryRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .post("/memory/ingest", async (context) => {
      const request = await decodeBody(context, MemoryIngestRequest);
      const userId = context.get("userId");
      // Where a claim comes from is vouched for by the key, not by the body: an agent's key cannot label its
      // own claims as the user's or the documentation's to skip review.
      if (context.get("keyKind") !== "user" && defaultTrustedSources.includes(request.source))
        throw new ApiProblem(
          403,
          "untrusted-source",
          `an agent key cannot ingest a memory from the trusted source "${request.source}"; send the source the claim really has (e.g. "conversation") or use the user's own key`,
        );
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
