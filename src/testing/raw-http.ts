import { connect, type Socket } from "node:net";
import { Worker } from "node:worker_threads";

export interface RawRequest {
  readonly socket: Socket;
  /** The answer's status code, once its status line arrives; 0 when the connection closes without one. */
  readonly answered: Promise<number>;
}

/**
 * Opens a connection to `url`'s host and writes `bytes` verbatim (a request head and as much of a body as the
 * test wants sent), so a test can leave a body unfinished, declare a length it never sends, or send chunks.
 * `opened` collects the socket, for the test to destroy afterwards.
 */
export const writeRaw = (url: string, bytes: string, opened: Socket[]): RawRequest => {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on("error", () => undefined);
  opened.push(socket);
  const answered = new Promise<number>((resolve) => {
    let head = "";
    socket.on("data", (chunk) => {
      head += String(chunk);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) resolve(Number(status[1]));
    });
    socket.on("close", () => resolve(0));
  });
  socket.write(bytes);
  return { socket, answered };
};

/** A request whose body is half sent: `finish` sends the rest and resolves with the answer's status. */
export interface HalfSentRequest extends RawRequest {
  readonly finish: () => Promise<number>;
}

/**
 * POSTs to `url`'s `path` over a connection of its own with `headers` (host and content-length added), declaring
 * `body`'s whole length but sending only its first half, as a slow client does; `opened` collects the socket.
 */
export const sendHalfBody = (
  url: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  opened: Socket[],
): HalfSentRequest => {
  const half = Math.floor(body.length / 2);
  const head = Object.entries({
    host: new URL(url).host,
    ...headers,
    "content-length": Buffer.byteLength(body),
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const request = writeRaw(url, `POST ${path} HTTP/1.1\r\n${head}\r\n${body.slice(0, half)}`, opened);
  return {
    ...request,
    finish: () => {
      request.socket.write(body.slice(half));
      return request.answered;
    },
  };
};

/**
 * Whether the server ends `url`'s connection after it has been sent half a request head and nothing more:
 * the answer's status (408, or 0 when it closes without one), or "open" if it is still open after `waitMs`.
 */
export const stallHead = async (
  url: string,
  path: string,
  opened: Socket[],
  waitMs = 10_000,
): Promise<number | "open"> => {
  const stalled = writeRaw(url, `POST ${path} HTTP/1.1\r\nhost: ${new URL(url).host}\r\n`, opened);
  return Promise.race([
    stalled.answered,
    new Promise<"open">((resolve) => setTimeout(() => resolve("open"), waitMs)),
  ]);
};

/**
 * A connection to `url`'s host, resolved once it is established; `opened` collects it. From `localAddress` when
 * given (any address of 127.0.0.0/8 reaches a loopback server, as a second client would).
 */
export const openConnection = (url: string, opened: Socket[], localAddress?: string): Promise<Socket> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    // An IPv6 host is written in brackets in a URL ("[::1]"), not in a socket's options.
    const host = hostname.replace(/^\[(.*)\]$/, "$1");
    const socket = connect({ port: Number(port), host, ...(localAddress ? { localAddress } : {}) }, () =>
      resolve(socket),
    );
    socket.on("error", () => undefined);
    opened.push(socket);
  });

/** `count` connections to `url`'s host opened one after the other (and held), from `localAddress` when given. */
export const openConnections = async (
  url: string,
  count: number,
  opened: Socket[],
  localAddress?: string,
): Promise<Socket[]> => {
  const held: Socket[] = [];
  for (let index = 0; index < count; index += 1) held.push(await openConnection(url, opened, localAddress));
  return held;
};

/** Writes `bytes` on `socket` and resolves with everything the server sent before it closed the connection. */
export const writeUntilClosed = (socket: Socket, bytes: string): Promise<string> =>
  new Promise((resolve) => {
    let received = "";
    socket.on("data", (chunk) => {
      received += String(chunk);
    });
    socket.on("close", () => resolve(received));
    socket.write(bytes);
  });

/**
 * How many of `count` connections, opened at once to a server on 127.0.0.1:`port` from `localAddress`, the kernel
 * establishes while this thread (and a server in it) is kept busy, so the server takes none of them: each is
 * established into the listening socket's queue, or, past the queue's length, its SYN is dropped, and sent again
 * after a second (then three, then seven) into a queue still full. The connections come from a worker thread,
 * which counts them in memory shared with this one; this thread waits until all are established, or for
 * `giveUpMs` (a deadline kept only to end when some never are).
 */
export const connectionsQueuedWhileBusy = async (
  port: number,
  count: number,
  localAddress: string,
  giveUpMs = 10_000,
): Promise<number> => {
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const client = new Worker(
    `const { connect } = require("node:net");
    const { workerData } = require("node:worker_threads");
    const { counter, port, count, localAddress } = workerData;
    for (let index = 0; index < count; index += 1)
      connect({ port, host: "127.0.0.1", localAddress }, () => Atomics.add(counter, 0, 1)).on("error", () => undefined);`,
    { eval: true, workerData: { counter, port, count, localAddress } },
  );
  try {
    await new Promise((resolve) => client.once("online", resolve));
    const started = Date.now();
    while (Atomics.load(counter, 0) < count && Date.now() - started < giveUpMs);
    return Atomics.load(counter, 0);
  } finally {
    await client.terminate();
  }
};
