import type { MiddlewareHandler } from "hono";
import { ApiProblem } from "../problem/index.js";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request that a browser sent from another site, whatever its content type (a JSON
 * or text body rides the session cookie as well as a form does). The browser says where a request comes from:
 * `Sec-Fetch-Site` (same-origin, or none for a typed address) or else `Origin`, which must be this server's
 * own. A request with neither is refused too: every browser this UI supports sends one of them on a POST.
 */
export const requireSameOrigin = (): MiddlewareHandler => async (context, next) => {
  if (safeMethods.has(context.req.method)) return next();
  const site = context.req.header("sec-fetch-site");
  const origin = context.req.header("origin");
  const own = new URL(context.req.url).origin;
  const allowed = site !== undefined ? site === "same-origin" || site === "none" : origin === own;
  // Under `Referrer-Policy: no-referrer` a browser sends `Origin: null` even for its own forms; the fetch
  // metadata header, which a page cannot forge, then says where the request came from.
  const originMismatch =
    origin !== undefined && origin !== own && !(origin === "null" && site === "same-origin");
  if (!allowed || originMismatch)
    throw new ApiProblem(
      403,
      "cross-site-request",
      "a state-changing request must come from this server's own pages",
    );
  return next();
};
