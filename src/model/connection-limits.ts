import type { Server } from "node:http";
import type { BodyBudgetLimits } from "./byte-budget.js";

/** What an HTTP server of Veracity's lets its clients hold: in all, and (the `PerKey` limits) per API key. */
export interface ConnectionLimits extends BodyBudgetLimits {
  /**
   * Requests one API key has in flight at once, counted by each process: past it the key's requests are
   * refused until one has been answered, so one key cannot fill the verifiers' queues.
   */
  readonly maxRequestsInFlightPerKey: number;
  /** Open connections at once; one past it is closed as it arrives. */
  readonly maxConnections: number;
  /** Longest a client may take to send a request's headers; past it the connection is closed. */
  readonly headersTimeoutMs: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  maxBodyBytesInFlight: 256 * 1024 * 1024,
  maxBodyBytesInFlightPerKey: 64 * 1024 * 1024,
  maxRequestsInFlightPerKey: 64,
  maxConnections: 10_000,
  headersTimeoutMs: 10_000,
};

/**
 * Options for `http.createServer`: Node looks for connections past the headers deadline every second (its
 * default, 30 s, would let a slow client keep one up to 30 s longer). Only settable when the server is made.
 */
export const connectionCheckingOptions = { connectionsCheckingInterval: 1_000 } as const;

/**
 * Applies the connection cap and the headers deadline to a server made with `connectionCheckingOptions`. Every
 * connection costs memory, and a slow one holds a share of the request-body total, whether or not it ever
 * sends a request.
 */
export const limitConnections = (
  server: Server,
  limits: Pick<ConnectionLimits, "maxConnections" | "headersTimeoutMs">,
): void => {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node requires the time for a whole request to be at least the time for its headers.
  server.requestTimeout = Math.max(server.requestTimeout, limits.headersTimeoutMs);
};
