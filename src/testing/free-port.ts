import { createServer } from "node:net";

/**
 * A loopback port nothing listens on right now, for a process that takes its port as a flag (`veracity serve`
 * and `veracity mcp` refuse `--port 0`). Another process may take it before it is used: for tests and benches.
 */
export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });
