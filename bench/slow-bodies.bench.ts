/**
 * What many slow clients make a server hold. A `veracity serve` in its own process (bench-server.ts: a PGlite
 * data directory, the default pool and limits) gets `connections` connections at once, each sending a request
 * to `POST /v1/check` whose body it leaves one byte short of the body limit (2 MiB by default), then waiting:
 *
 * - `keyed`: with the server's key and a declared `content-length`;
 * - `keyless-chunked`: without a key, the body sent in chunks (`transfer-encoding: chunked`).
 *
 * Reported after `holdSeconds`: the server's resident memory before the clients and its peak while they wait,
 * how many were answered and with what status, and how many connections are still open. Then, while they still
 * wait, one small `/v1/check` with the same key and one with another user's key: what the slow clients leave for
 * their own key and for everyone else (status and milliseconds).
 *
 *   node --import tsx bench/slow-bodies.bench.ts [connections, default 600] [holdSeconds, default 10]
 */
import { connect, type Socket } from "node:net";
import { machineLine } from "./libraries/call-timings.js";
import { post } from "./libraries/server-load.js";
import { startServerProcess } from "./libraries/server-process.js";

const args = process.argv.slice(2);
const connections = Number(args[0] ?? 600);
const holdSeconds = Number(args[1] ?? 10);
const bodyBytes = 2 * 1024 * 1024;

interface Client {
  readonly socket: Socket;
  status: string | undefined;
  closed: boolean;
}

const attack = (url: string, key: string | undefined, chunked: boolean): Client[] => {
  const { hostname, port, host } = new URL(url);
  const piece = Buffer.alloc(64 * 1024, 0x20);
  const frame = (bytes: Buffer) =>
    chunked
      ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
      : bytes;
  const clients: Client[] = [];
  for (let index = 0; index < connections; index += 1) {
    const socket = connect(Number(port), hostname);
    const client: Client = { socket, status: undefined, closed: false };
    clients.push(client);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      client.closed = true;
    });
    socket.on("data", (chunk) => {
      client.status ??= /^HTTP\/1\.1 (\d{3})/.exec(String(chunk))?.[1];
    });
    socket.write(
      `POST /v1/check HTTP/1.1\r\nhost: ${host}\r\n${key === undefined ? "" : `authorization: Bearer ${key}\r\n`}` +
        `content-type: application/json\r\n${chunked ? "transfer-encoding: chunked" : `content-length: ${bodyBytes}`}\r\n\r\n`,
    );
    let sent = 0;
    while (sent + piece.length < bodyBytes) {
      socket.write(frame(piece));
      sent += piece.length;
    }
    socket.write(frame(Buffer.alloc(bodyBytes - sent - 1, 0x20)));
  }
  return clients;
};

/** One small `/v1/check` with `key`: its status and how long it took. */
const probe = async (url: string, key: string | undefined): Promise<string> => {
  if (key === undefined) return "-";
  const body = JSON.stringify({
    text: "The bridge opened in 1932.",
    sources: ["The bridge was opened in 1932."],
  });
  return post(
    `${url}/v1/check`,
    { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
  ).then(
    ({ status, ms }) => `${status} in ${Math.round(ms)} ms`,
    (error: Error) => `failed (${(error.cause as { code?: string } | undefined)?.code ?? error.message})`,
  );
};

const rows: Record<string, Record<string, string | number>> = {};
for (const mode of ["keyed", "keyless-chunked"] as const) {
  const server = await startServerProcess();
  const idle = await server.mark();
  const clients = attack(server.url, mode === "keyed" ? server.key : undefined, mode === "keyless-chunked");
  await new Promise((resolve) => setTimeout(resolve, holdSeconds * 1000));
  const held = await server.mark();
  const statuses: Record<string, number> = {};
  for (const client of clients)
    if (client.status !== undefined) statuses[client.status] = (statuses[client.status] ?? 0) + 1;
  rows[mode] = {
    connections,
    "resident MB before": idle.memory?.residentMb ?? "-",
    "resident MB peak while held": held.memory?.peakResidentMb ?? "-",
    answered: Object.entries(statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(", "),
    "still open": clients.filter((client) => !client.closed).length,
    "same key then": mode === "keyed" ? await probe(server.url, server.key) : "-",
    "another key then": await probe(server.url, server.otherKey),
  };
  for (const client of clients) client.socket.destroy();
  await server.stop();
}
console.log(machineLine());
console.log(`${bodyBytes - 1} bytes of each ${bodyBytes}-byte body sent, then held for ${holdSeconds} s`);
console.table(rows);
