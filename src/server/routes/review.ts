import { Hono } from "hono";
import { decodeBody } from "../decode-body.js";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { ApiProblem } from "../middleware/problem/index.js";
import { queueIdParam } from "../queue-id.js";
import { approveItem, rejectItem } from "../review-decisions.js";
import { RejectRequest } from "../schemas.js";

const maxListed = 100;

const listLimit = (value: string | undefined): number => {
  if (value === undefined) return 50;
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxListed)
    throw new ApiProblem(400, "invalid-query", `limit must be a whole number from 1 to ${maxListed}`);
  return limit;
};

/**
 * The review queue of the authenticated user. The reviewer is always that user: an item of someone else is
 * "not found", exactly like an id that does not exist, and the queue decides each item once.
 */
export const reviewRoutes = (deps: ServerDeps) =>
  new Hono<ServerEnv>()
    .get("/review/pending", async (context) => {
      const items = await deps.memory.pending(context.get("userId"), listLimit(context.req.query("limit")));
      return context.json({ items });
    })
    .get("/review/:queueId", async (context) =>
      context.json(await deps.memory.getPending(queueIdParam(context), context.get("userId"))),
    )
    .post("/review/:queueId/approve", async (context) => {
      const memory = await approveItem(deps, queueIdParam(context), context.get("userId"));
      return context.json({ status: "approved", memory });
    })
    .post("/review/:queueId/reject", async (context) => {
      const { reason } = await decodeBody(context, RejectRequest);
      await rejectItem(deps, queueIdParam(context), context.get("userId"), reason);
      return context.json({ status: "rejected" });
    });
