import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiProblem } from "../problem/index.js";

/**
 * Refuses bodies larger than `maxBytes` (declared or streamed) with a 413 problem before they are read.
 *
 * A body with a `content-length` (and no `transfer-encoding`) is judged by that header alone, which Node's HTTP
 * parser holds the client to, so the request is not turned into a web `Request` with a body stream just to be
 * measured (a tenth of the server's time per request); a streamed (chunked) body is counted as it is read.
 */
export const limitBody = (maxBytes: number): MiddlewareHandler => {
  const tooLarge = (): never => {
    throw new ApiProblem(413, "body-too-large", `the request body exceeds ${maxBytes} bytes`, {}, "body");
  };
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (context, next) => {
    const method = context.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const declared = context.req.header("content-length");
    if (declared !== undefined && context.req.header("transfer-encoding") === undefined)
      return Number.parseInt(declared || "0", 10) > maxBytes ? tooLarge() : next();
    return streamed(context, next);
  };
};
