import { connect, type Socket } from "node:net";

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
