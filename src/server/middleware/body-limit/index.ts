import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiProblem } from "../problem/index.js";

/** Refuses bodies larger than `maxBytes` (declared or streamed) with a 413 problem before they are read. */
export const limitBody = (maxBytes: number): MiddlewareHandler =>
  bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiProblem(413, "body-too-large", `the request body exceeds ${maxBytes} bytes`);
    },
  });
