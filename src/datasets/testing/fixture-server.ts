import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import type { DatasetSpec } from "../spec.js";

/** Small copies of upstream files, laid out like raw.githubusercontent.com: OWNER/REPO/COMMIT/PATH. */
export const fixtureRoot = fileURLToPath(new URL("../fixtures/upstream/", import.meta.url));

/** How the server answers one path: normally, with altered bytes, 404, a stall, or a cut-off body. */
export type Behaviour = "ok" | "corrupt" | "missing" | "stall" | "interrupt";

export interface FixtureServer {
  readonly url: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  readonly close: () => Promise<void>;
}

/** A real HTTP server on loopback serving the fixture copies, with a behaviour chosen per request path. */
export const startFixtureServer = async (
  behaviour: (path: string) => Behaviour = () => "ok",
): Promise<FixtureServer> => {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname).slice(1);
    requests.push(path);
    const mode = behaviour(path);
    let body: Buffer;
    try {
      if (mode === "missing" || normalize(path).startsWith("..")) throw new Error("missing");
      body = readFileSync(join(fixtureRoot, normalize(path)));
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("404: Not Found");
      return;
    }
    if (mode === "stall") return; // never answers: the client's idle timeout must fire
    if (mode === "corrupt")
      body = Buffer.concat([body.subarray(0, Math.max(0, body.length - 2)), Buffer.from("!!")]);
    response.writeHead(200, {
      "content-length": String(body.length),
      "content-type": "application/octet-stream",
    });
    if (mode === "interrupt") {
      response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.socket?.destroy());
      return;
    }
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The spec with every file pinned to the SHA-256 of its fixture copy: the registry a test fetches with. */
export const pinnedToFixtures = (spec: DatasetSpec): DatasetSpec => ({
  ...spec,
  files: spec.files.map((file) => ({
    ...file,
    sha256: createHash("sha256")
      .update(readFileSync(join(fixtureRoot, spec.repository, spec.commit, file.path)))
      .digest("hex"),
  })),
});
