import type { Server } from "node:http";
import type { Socket } from "node:net";
import ipaddr from "ipaddr.js";
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
  /**
   * Open connections one client address (an IPv6 client's /64 network) may hold once half of `maxConnections`
   * are open: from then on, a connection from an address holding this many is closed as it arrives, so one client
   * cannot hold every connection `maxConnections` allows. Below half, no client is refused for its count: clients
   * that share an address (behind one proxy or NAT) are not shut out while the server has room.
   */
  readonly maxConnectionsPerAddress: number;
  /** Longest a client may take to send a request's headers; past it the connection is closed. */
  readonly headersTimeoutMs: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  maxBodyBytesInFlight: 256 * 1024 * 1024,
  maxBodyBytesInFlightPerKey: 64 * 1024 * 1024,
  maxRequestsInFlightPerKey: 64,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 1_000,
  headersTimeoutMs: 10_000,
};

/**
 * How many new connections the kernel may hold, handshake done, until the server takes them: Node's default is
 * 511, and Linux caps it at `net.core.somaxconn` (4096 on current kernels). The event loop takes one new
 * connection per turn, so a burst that arrives while it is busy waits in this queue; past it the kernel drops a
 * client's SYN and the client sends it again only after a second (then three). Measured with 10,000 connections
 * from one address, 9,000 of them refused and each tried again a second later (`npm run bench:connection-hog`,
 * the cap per address then binding at 1,000): 22,000-31,000 SYNs dropped per run at 511 and another address's
 * p99 1 s in 5 of 10 runs; 800-4,900 at 4096 and its p99 25-97 ms in 8 of 8.
 */
export const listenBacklog = 4_096;

/**
 * Options for `http.createServer`: Node looks for connections past the headers deadline every second (its
 * default, 30 s, would let a slow client keep one up to 30 s longer). Only settable when the server is made.
 */
export const connectionCheckingOptions = { connectionsCheckingInterval: 1_000 } as const;

/**
 * The client a connection's address is counted for: an IPv4 address as it is (an IPv4 client reaching an IPv6
 * socket included), an IPv6 address by its /64 network, which one host or one customer of a provider is given
 * whole, so that changing addresses within it does not make a client many. An address that cannot be read
 * counts as one client of its own ("unknown").
 */
export const clientOfAddress = (address: string | undefined): string => {
  if (address === undefined) return "unknown";
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return "unknown";
  }
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
};

/** What `limitConnections` reports: a connection it closed on arrival because its client held too many. */
export interface ConnectionLimitEvents {
  readonly refusedPerAddress?: () => void;
}

/**
 * Applies the connection caps and the headers deadline to a server made with `connectionCheckingOptions`. Every
 * connection costs memory, and a slow one holds a share of the request-body total, whether or not it ever
 * sends a request. The cap per client is counted as connections arrive and close: a connection past it is
 * destroyed before anything is built for it, as Node itself closes one past `maxConnections`. The counts are
 * bounded by the open connections: a client's entry goes with its last connection.
 */
export const limitConnections = (
  server: Server,
  limits: Pick<ConnectionLimits, "maxConnections" | "maxConnectionsPerAddress" | "headersTimeoutMs">,
  events: ConnectionLimitEvents = {},
): void => {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node requires the time for a whole request to be at least the time for its headers.
  server.requestTimeout = Math.max(server.requestTimeout, limits.headersTimeoutMs);
  const open = new Map<string, number>();
  let openInAll = 0;
  // From here on the server is short of room, and a client past its cap gets no more.
  const pressedAt = Math.ceil(limits.maxConnections / 2);
  /** Whether the connection may stay (see `maxConnectionsPerAddress`); counted until it closes when it may. */
  const admit = (socket: Socket): boolean => {
    const client = clientOfAddress(socket.remoteAddress);
    const held = open.get(client) ?? 0;
    if (held >= limits.maxConnectionsPerAddress && openInAll >= pressedAt) return false;
    open.set(client, held + 1);
    openInAll += 1;
    socket.once("close", () => {
      openInAll -= 1;
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
    return true;
  };
  // The server's own listeners (Node's HTTP parser set-up) hear of a connection only once it is admitted: a
  // refused one is destroyed before anything is built for it, which under a flood of connections from one
  // client is most of what each costs.
  const own = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    if (!admit(socket)) {
      socket.destroy();
      events.refusedPerAddress?.();
      return;
    }
    for (const listener of own) listener.call(server, socket);
  });
};
