import type { Context } from "hono";
import { unreadableText } from "../model/limits.js";
import { ApiProblem } from "./middleware/problem/index.js";

/** Longer than any id the review queue hands out; a longer one cannot name an item. */
const maxQueueIdLength = 200;

/**
 * The `:queueId` of a review route, refused with a 400 naming the field when no store could read it (a NUL, a
 * lone surrogate) or when it is longer than any id: such an id would otherwise reach the database and come back
 * as a store error (503) instead of the caller's mistake.
 */
export const queueIdParam = (context: Context): string => {
  const queueId = context.req.param("queueId") ?? "";
  const reason =
    unreadableText(queueId) ??
    (queueId.length > maxQueueIdLength ? `is longer than ${maxQueueIdLength} characters` : undefined);
  if (reason !== undefined) throw new ApiProblem(400, "invalid-path", `queueId ${reason}`, {}, "queueId");
  return queueId;
};
