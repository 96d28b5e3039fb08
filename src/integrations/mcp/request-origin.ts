import { trimEndWhere } from "../../text/trim.js";

/**
 * Who may reach the MCP HTTP endpoint, judged from the `Host` and `Origin` headers before anything else is read.
 *
 * DNS rebinding: a web page on `evil.example` can make its own name resolve to 127.0.0.1 and then talk to a
 * server on this machine from the victim's browser. The browser still sends `Host: evil.example:<port>`, so a
 * server that answers only to the names it is known by (by default the loopback names with its port) refuses
 * it. A page's cross-origin request carries its `Origin`; only the origins listed may call. A client that is
 * not a browser sends no `Origin` and is judged by its `Host` (and its key) alone.
 */

/** The names a loopback server is reached by, with its port: 127.0.0.1, localhost and [::1]. */
const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];

/** Addresses that mean "every interface": a client never names them in `Host`. */
const wildcardAddresses = new Set(["0.0.0.0", "::", "[::]"]);

/** An IPv6 literal as it appears in `Host` and `Origin`: in brackets. */
const bracketed = (host: string): string =>
  host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;

/** The `Host` values accepted by default: the loopback names and the address listened on, with the port. */
export const defaultAllowedHosts = (listenHost: string, port: number): string[] => {
  const names = new Set(loopbackNames);
  if (!wildcardAddresses.has(listenHost)) names.add(bracketed(listenHost.toLowerCase()));
  return [...names].map((name) => `${name}:${port}`);
};

/** The `Origin` values accepted by default: pages served by this very server, over http on its port. */
export const defaultAllowedOrigins = (listenHost: string, port: number): string[] =>
  defaultAllowedHosts(listenHost, port).map((host) => `http://${host}`);

export interface RequestOriginPolicy {
  /** `Host` values served; an entry without a port also matches that name on the server's port. */
  readonly allowedHosts: readonly string[];
  /** Browser origins allowed to call (scheme, name and port, e.g. `http://localhost:3333`). */
  readonly allowedOrigins: readonly string[];
  /** The port listened on, for entries of `allowedHosts` written without one. */
  readonly port: number;
}

// A backward scan, not `/\/+$/`: a Host or Origin header of many slashes must not cost quadratic time.
const normalized = (value: string): string =>
  trimEndWhere(value.trim().toLowerCase(), (character) => character === "/");

/**
 * Why a request must be refused (403), or undefined when its `Host` is one this server answers to and its
 * `Origin`, if any, is allowed. A missing `Host` is refused (every HTTP/1.1 client sends one); `Origin: null`
 * (sandboxed frames, local files) is refused like any origin not listed.
 */
export const refusalReason = (
  headers: { readonly host?: string | undefined; readonly origin?: string | undefined },
  policy: RequestOriginPolicy,
): string | undefined => {
  const host = headers.host === undefined ? undefined : normalized(headers.host);
  const hostAllowed =
    host !== undefined &&
    policy.allowedHosts.some((entry) => {
      const allowed = normalized(entry);
      return allowed === host || `${allowed}:${policy.port}` === host;
    });
  if (!hostAllowed)
    return `Host "${headers.host ?? ""}" is not served here (allowed: ${policy.allowedHosts.join(", ")})`;
  if (headers.origin === undefined) return undefined;
  const origin = normalized(headers.origin);
  if (policy.allowedOrigins.some((entry) => normalized(entry) === origin)) return undefined;
  return `Origin "${headers.origin}" may not call this server`;
};
