import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CalculationRecorder } from "../../checks/numbers/index.js";
import { runAsQueueOwner } from "../../facade/worker-pool/queue-owner.js";
import type { Principal } from "../../memory/tiers/principal-source.js";
import {
  type ByteBudget,
  bodyBudgetOf,
  bodyBudgetRefusal,
  bodyBytesToReserve,
} from "../../model/byte-budget.js";
import {
  connectionCheckingOptions,
  defaultConnectionLimits,
  limitConnections,
  listenBacklog,
} from "../../model/connection-limits.js";
import { errorMessage } from "../../model/error-message.js";
import { requestSlotsOf, requestSlotsRefusal, type SharedBudget } from "../../model/shared-budget.js";
import {
  defaultAllowedHosts,
  defaultAllowedOrigins,
  type RequestOriginPolicy,
  refusalReason,
} from "./request-origin.js";
import { createVeracityMcpServer } from "./server.js";
import type { McpDependencies } from "./tools.js";

/** The holder of a presented key: the user the memory tools act for, and whether it is that person or an agent. */
export interface McpCaller {
  readonly userId: string;
  readonly principal: Principal;
}

/**
 * Looks up a bearer key: its holder, or undefined for an unknown, revoked or malformed key. `veracity mcp --http`
 * passes the server's own API keys (the database `veracity serve keys create` writes to).
 */
export type McpAuthenticator = (key: string) => Promise<McpCaller | undefined>;

export interface McpHttpOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (an ephemeral port). */
  readonly port?: number;
  /** Largest request body accepted (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Request-body bytes held at once across every connection (default 256 MiB; never below `maxBodyBytes`): an
   * authenticated request whose body does not fit is answered 503 before its body is read.
   */
  readonly maxBodyBytesInFlight?: number;
  /**
   * Request-body bytes one key's requests hold at once (default 64 MiB; never below `maxBodyBytes`, never
   * above the total): a request past it is answered 429 before its body is read, so one key cannot fill the
   * total and shut the others out.
   */
  readonly maxBodyBytesInFlightPerKey?: number;
  /**
   * Calls one key has in flight at once (default 64): one past it is answered 429 before its body is read, so
   * one key cannot fill the verification workers' queues.
   */
  readonly maxRequestsInFlightPerKey?: number;
  /** Open connections at once (default 10,000); a connection past it is closed as it arrives. */
  readonly maxConnections?: number;
  /**
   * Open connections one client address (an IPv6 client's /64 network) may hold once half of `maxConnections` are
   * open (default 1,000); from then on a connection past it is closed as it arrives.
   */
  readonly maxConnectionsPerAddress?: number;
  /** Longest a client may take to send a request's headers (default 10 s); past it the connection is closed. */
  readonly headersTimeoutMs?: number;
  /**
   * Every request must carry `Authorization: Bearer <key>` accepted here (401 otherwise); the memory tools then
   * act for the key's user, with an agent's trust tier for an agent's key. Required unless
   * `insecureNoAuthentication` is set.
   */
  readonly authenticate?: McpAuthenticator;
  /**
   * Serve without keys: anybody who can reach the port calls the tools, the memory tools act for
   * `dependencies.userId` and every caller is treated as an agent (its memories are reviewed, whatever source
   * they name). For tests and single-user machines; never on a shared network.
   */
  readonly insecureNoAuthentication?: boolean;
  /**
   * `Host` values served (403 otherwise). Default: 127.0.0.1, localhost, [::1] and the address listened on,
   * each with the port. A name behind a reverse proxy must be listed here.
   */
  readonly allowedHosts?: readonly string[];
  /** Browser `Origin`s allowed to call (403 otherwise). Default: this server's own loopback origins. */
  readonly allowedOrigins?: readonly string[];
}

export interface McpHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp */
  readonly url: string;
  readonly close: () => Promise<void>;
}

const defaultMaxBodyBytes = 4 * 1024 * 1024;

class BodyTooLargeError extends Error {}

const readJson = (request: IncomingMessage, maxBytes: number): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is discarded (not kept); the 413 answer closes the connection.
      if (size > maxBytes) reject(new BodyTooLargeError(`request body larger than ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
      } catch {
        reject(new SyntaxError("request body is not JSON"));
      }
    });
    request.on("error", reject);
  });

const jsonRpcError = (response: ServerResponse, status: number, code: number, message: string): void => {
  if (response.headersSent) return;
  response.writeHead(status, {
    "content-type": "application/json",
    ...(status === 413 ? { connection: "close" } : {}),
    ...(status === 503 || status === 429 ? { "retry-after": "1" } : {}),
    ...(status === 401 ? { "www-authenticate": 'Bearer realm="veracity"' } : {}),
  });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
};

const bearerKey = (request: IncomingMessage): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];

/** How many users' calculator results are kept at once; the least recently active user's go first. */
const maxRecordedUsers = 1_000;

/**
 * The calculator results of each user: evidence for that user's later `verify` calls only, so one user's
 * calculations never vouch for another's numbers.
 */
const calculationsByUser = () => {
  const recorders = new Map<string, CalculationRecorder>();
  return (userId: string): CalculationRecorder => {
    const recorder = recorders.get(userId) ?? new CalculationRecorder();
    recorders.delete(userId);
    recorders.set(userId, recorder);
    if (recorders.size > maxRecordedUsers) {
      const oldest = recorders.keys().next().value;
      if (oldest !== undefined) recorders.delete(oldest);
    }
    return recorder;
  };
};

interface Gate {
  readonly policy: RequestOriginPolicy;
  /**
   * The dependencies this request's tools run with (its caller's user and trust) and whose share of `bodies`
   * and `requestSlots` it takes (its key's, hashed; none without keys), or a refusal.
   */
  readonly admit: (
    request: IncomingMessage,
  ) => Promise<
    | { readonly dependencies: McpDependencies; readonly holder: string | undefined }
    | { readonly refused: 401; readonly message: string }
  >;
  /** The request bodies held at once, across connections. */
  readonly bodies: ByteBudget;
  /** The requests each key has in flight at once. */
  readonly requestSlots: SharedBudget;
}

/** One stateless exchange: a fresh MCP server and transport answer one POST (JSON responses). */
const handle = async (
  request: IncomingMessage,
  response: ServerResponse,
  gate: Gate,
  maxBodyBytes: number,
): Promise<void> => {
  // Host and Origin first: a rebound or cross-site request learns nothing, not even which paths exist.
  const refusal = refusalReason(request.headers, gate.policy);
  if (refusal !== undefined) return jsonRpcError(response, 403, -32000, refusal);
  const path = (request.url ?? "/").split("?")[0];
  if (path !== "/mcp") return jsonRpcError(response, 404, -32601, `no endpoint ${path}`);
  if (request.method !== "POST") return jsonRpcError(response, 405, -32000, "only POST is supported");
  // The key is checked before the body is read: an unauthenticated client cannot make the server buffer 4 MiB.
  const admitted = await gate.admit(request);
  if ("refused" in admitted) return jsonRpcError(response, 401, -32001, admitted.message);
  const { dependencies, holder } = admitted;
  const bytes = bodyBytesToReserve(
    request.headers["content-length"],
    request.headers["transfer-encoding"],
    maxBodyBytes,
  );
  const slot = gate.requestSlots.reserve(1, holder);
  if (!slot.held) return jsonRpcError(response, 429, -32000, requestSlotsRefusal(gate.requestSlots));
  // The slot and the body's bytes are held until the answer is sent or the connection closes, whichever comes
  // first.
  response.once("close", slot.release);
  const reservation = gate.bodies.reserve(bytes, holder);
  if (!reservation.held)
    return jsonRpcError(
      response,
      reservation.full === "holder" ? 429 : 503,
      -32000,
      bodyBudgetRefusal(gate.bodies, reservation.full),
    );
  response.once("close", reservation.release);
  let body: unknown;
  try {
    body = await readJson(request, maxBodyBytes);
  } catch (error) {
    const tooLarge = error instanceof BodyTooLargeError;
    return jsonRpcError(response, tooLarge ? 413 : 400, -32700, (error as Error).message);
  }
  const server = createVeracityMcpServer(dependencies);
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  // The pool's workers take each key's calls in turn (queue-owner.ts); without keys, one turn for all.
  await runAsQueueOwner(holder ?? "", () => transport.handleRequest(request, response, body));
};

/** Serves the MCP tools over streamable HTTP (stateless, JSON responses) at `<url>/mcp`. */
export const startMcpHttpServer = (
  dependencies: McpDependencies,
  options: McpHttpOptions = {},
): Promise<McpHttpServer> => {
  const { authenticate } = options;
  if (authenticate === undefined && options.insecureNoAuthentication !== true)
    return Promise.reject(
      new Error(
        "the MCP HTTP server needs `authenticate` (API keys) or, knowingly, `insecureNoAuthentication: true`",
      ),
    );
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const host = options.host ?? "127.0.0.1";
  const recorderFor = calculationsByUser();
  const bodies = bodyBudgetOf(
    {
      maxBodyBytesInFlight: options.maxBodyBytesInFlight ?? defaultConnectionLimits.maxBodyBytesInFlight,
      maxBodyBytesInFlightPerKey:
        options.maxBodyBytesInFlightPerKey ?? defaultConnectionLimits.maxBodyBytesInFlightPerKey,
    },
    maxBodyBytes,
  );
  // Known once listening (the port may be ephemeral); no request is answered before.
  let policy: RequestOriginPolicy = { allowedHosts: [], allowedOrigins: [], port: 0 };
  const gate: Gate = {
    get policy() {
      return policy;
    },
    bodies,
    requestSlots: requestSlotsOf(
      options.maxRequestsInFlightPerKey ?? defaultConnectionLimits.maxRequestsInFlightPerKey,
    ),
    admit: async (request) => {
      if (authenticate === undefined)
        return { dependencies: { ...dependencies, principal: "agent" }, holder: undefined };
      const key = bearerKey(request);
      if (key === undefined)
        return { refused: 401, message: "send an API key as 'Authorization: Bearer <key>'" };
      const caller = await authenticate(key);
      if (caller === undefined) return { refused: 401, message: "the API key is unknown or revoked" };
      return {
        dependencies: {
          ...dependencies,
          userId: caller.userId,
          principal: caller.principal,
          calculations: recorderFor(caller.userId),
        },
        holder: createHash("sha256")
          .update(key as string)
          .digest("hex"),
      };
    },
  };
  const http = createServer(connectionCheckingOptions, (request, response) => {
    handle(request, response, gate, maxBodyBytes).catch((error: unknown) =>
      jsonRpcError(response, 500, -32603, errorMessage(error)),
    );
  });
  limitConnections(http, {
    maxConnections: options.maxConnections ?? defaultConnectionLimits.maxConnections,
    maxConnectionsPerAddress:
      options.maxConnectionsPerAddress ?? defaultConnectionLimits.maxConnectionsPerAddress,
    headersTimeoutMs: options.headersTimeoutMs ?? defaultConnectionLimits.headersTimeoutMs,
  });
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen({ port: options.port ?? 0, host, backlog: listenBacklog }, () => {
      const { port } = http.address() as AddressInfo;
      policy = {
        allowedHosts: options.allowedHosts ?? defaultAllowedHosts(host, port),
        allowedOrigins: options.allowedOrigins ?? defaultAllowedOrigins(host, port),
        port,
      };
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`,
        close: () =>
          new Promise<void>((done) => {
            http.closeAllConnections();
            http.close(() => done());
          }),
      });
    });
  });
};
