import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createVeracityMcpServer } from "./server.js";
import type { McpDependencies } from "./tools.js";

export interface McpHttpOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (an ephemeral port). */
  readonly port?: number;
  /** Largest request body accepted (default 4 MiB). */
  readonly maxBodyBytes?: number;
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
  });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
};

/** One stateless exchange: a fresh MCP server and transport answer one POST (JSON responses). */
const handle = async (
  request: IncomingMessage,
  response: ServerResponse,
  dependencies: McpDependencies,
  maxBodyBytes: number,
): Promise<void> => {
  const path = (request.url ?? "/").split("?")[0];
  if (path !== "/mcp") return jsonRpcError(response, 404, -32601, `no endpoint ${path}`);
  if (request.method !== "POST") return jsonRpcError(response, 405, -32000, "only POST is supported");
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
  await transport.handleRequest(request, response, body);
};

/** Serves the MCP tools over streamable HTTP (stateless, JSON responses) at `<url>/mcp`. */
export const startMcpHttpServer = (
  dependencies: McpDependencies,
  options: McpHttpOptions = {},
): Promise<McpHttpServer> => {
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  const http = createServer((request, response) => {
    handle(request, response, dependencies, maxBodyBytes).catch((error: unknown) =>
      jsonRpcError(response, 500, -32603, error instanceof Error ? error.message : String(error)),
    );
  });
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      const { port } = http.address() as AddressInfo;
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
