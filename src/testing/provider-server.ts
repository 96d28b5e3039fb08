import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ProviderRoute = "openai.chat" | "openai.embeddings" | "anthropic.messages";

/** A response to replay. An object body is sent as JSON; a string body is sent as is (malformed JSON...). */
export interface ReplayResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Send the status line and the start of the body, then never finish (a stalled stream). */
  readonly stall?: boolean;
}

export interface RecordedRequest {
  readonly route: ProviderRoute;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
}

export interface ProviderServerOptions {
  /** Added to every call before it is answered (for benchmarks). */
  readonly latencyMs?: number;
  /** Answers a request when its route's queue is empty; without it such a request gets a 404. */
  readonly respond?: (request: RecordedRequest) => ReplayResponse;
  /** Requests kept in `requests` (default 10 000; older ones are dropped). */
  readonly maxRecorded?: number;
}

export interface ProviderServer {
  /** e.g. "http://127.0.0.1:40123" */
  readonly url: string;
  /** Base URL for the OpenAI and OpenAI-compatible providers ("<url>/v1"). */
  readonly openAIBaseUrl: string;
  /** Base URL for the Anthropic provider ("<url>/v1"). */
  readonly anthropicBaseUrl: string;
  /** Queues responses for a route, served in order before `respond`. */
  readonly enqueue: (route: ProviderRoute, ...responses: ReplayResponse[]) => void;
  readonly requests: RecordedRequest[];
  readonly close: () => Promise<void>;
}

const routes: Readonly<Record<string, ProviderRoute>> = {
  "/v1/chat/completions": "openai.chat",
  "/v1/embeddings": "openai.embeddings",
  "/v1/messages": "anthropic.messages",
};

const maxBodyBytes = 4 * 1024 * 1024;
const maxQueued = 1000;

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new Error("request body too large"));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const send = (response: ServerResponse, reply: ReplayResponse): void => {
  const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
  response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
  if (reply.stall === true) {
    response.write(body.slice(0, Math.max(1, Math.floor(body.length / 2))));
    return;
  }
  response.end(body);
};

/**
 * A local model provider on 127.0.0.1 speaking the OpenAI chat-completions and embeddings wire format and
 * the Anthropic messages format, replaying queued responses (see `recordings.ts`) and recording every
 * request. Listens on an ephemeral port; `close` drops open (stalled) connections.
 */
export const startProviderServer = (options: ProviderServerOptions = {}): Promise<ProviderServer> => {
  const queues = new Map<ProviderRoute, ReplayResponse[]>();
  const requests: RecordedRequest[] = [];
  const maxRecorded = options.maxRecorded ?? 10_000;
  const server = createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      const route = routes[path];
      const text = await readBody(request);
      if (route === undefined || request.method !== "POST") {
        send(response, { status: 404, body: { error: { message: `no route ${request.method} ${path}` } } });
        return;
      }
      const recorded: RecordedRequest = { route, path, headers: request.headers, body: parseJson(text) };
      requests.push(recorded);
      if (requests.length > maxRecorded) requests.shift();
      if (options.latencyMs !== undefined && options.latencyMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      }
      const queued = queues.get(route)?.shift();
      const reply = queued ??
        options.respond?.(recorded) ?? {
          status: 404,
          body: { error: { message: `nothing queued for ${route}` } },
        };
      if (!response.destroyed) send(response, reply);
    })().catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, body: { error: { message: String(error) } } });
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}`;
      resolve({
        url,
        openAIBaseUrl: `${url}/v1`,
        anthropicBaseUrl: `${url}/v1`,
        requests,
        enqueue: (route, ...responses) => {
          const queue = queues.get(route) ?? [];
          if (queue.length + responses.length > maxQueued)
            throw new Error(`more than ${maxQueued} queued responses`);
          queues.set(route, [...queue, ...responses]);
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
};
