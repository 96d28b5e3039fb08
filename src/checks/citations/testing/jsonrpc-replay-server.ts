import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** One recorded answer: the JSON-RPC `result` (or `error`) for a method and its first parameter. */
interface Recording {
  readonly result?: unknown;
  readonly error?: unknown;
}

export interface ReplayServer {
  readonly url: string;
  /** Every JSON-RPC call received, in order (`method` and `params`). */
  readonly calls: readonly { method: string; params: readonly unknown[] }[];
  /** HTTP requests received (a batch of calls is one request). */
  readonly httpRequests: () => number;
  /** From now on answer every request with HTTP 500 (to test outages). */
  readonly failWith500: (enabled: boolean) => void;
  readonly close: () => Promise<void>;
}

/** The method and first parameter a recording's file name encodes (`...web3_response.eth_getBlockByNumber_0xb872_true.json`). */
const keyOfFile = (file: string): string | undefined => {
  const name = file
    .slice(file.lastIndexOf("web3_response.") + "web3_response.".length)
    .replace(/\.json$/, "");
  const parts = name.split("_");
  if (parts.length < 2) return undefined;
  const method = `${parts[0]}_${parts[1]}`;
  return `${method}:${(parts[2] ?? "").toLowerCase()}`;
};

const keyOfCall = (method: string, params: readonly unknown[]): string => {
  const first = params[0];
  return `${method}:${typeof first === "string" ? first.toLowerCase() : ""}`;
};

/** Loads the recorded mainnet responses of `directory` (ethereum-etl's `*web3_response.*.json` files). */
export const loadRecordings = (directory: string): ReadonlyMap<string, Recording> => {
  const recordings = new Map<string, Recording>();
  for (const file of readdirSync(directory)) {
    if (!file.endsWith(".json")) continue;
    const key = keyOfFile(file);
    if (key === undefined) continue;
    const body = JSON.parse(readFileSync(path.join(directory, file), "utf8")) as Recording;
    recordings.set(key, body);
  }
  return recordings;
};

/**
 * A JSON-RPC server on 127.0.0.1 that replays recorded mainnet responses, single or batched. A call with no
 * recording gets `result: null`, as a node answers for an unknown transaction or block.
 */
export const startReplayServer = async (directory: string): Promise<ReplayServer> => {
  const recordings = loadRecordings(directory);
  const calls: { method: string; params: readonly unknown[] }[] = [];
  let requests = 0;
  let failing = false;

  const answer = (call: { id?: unknown; method?: unknown; params?: unknown }) => {
    const method = typeof call.method === "string" ? call.method : "";
    const params = Array.isArray(call.params) ? call.params : [];
    calls.push({ method, params });
    const recording = recordings.get(keyOfCall(method, params));
    if (recording?.error !== undefined)
      return { jsonrpc: "2.0", id: call.id ?? null, error: recording.error };
    return { jsonrpc: "2.0", id: call.id ?? null, result: recording?.result ?? null };
  };

  const server: Server = createServer((request, response) => {
    requests += 1;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (failing) {
        response.writeHead(500, { "content-type": "text/plain" }).end("replay server told to fail");
        return;
      }
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
        const reply = Array.isArray(body)
          ? body.map(answer)
          : answer(body as { id?: unknown; method?: unknown });
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
      } catch {
        response
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    httpRequests: () => requests,
    failWith500: (enabled) => {
      failing = enabled;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
