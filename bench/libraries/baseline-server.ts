import { spawn } from "node:child_process";

/**
 * The machine's own ceiling for the load bench: Node's `node:http` in a process of its own, reading each POST's
 * body, parsing it with `JSON.parse` and answering a small JSON object, no framework, no verification, no
 * database. The load bench drives it with the same bodies and connections as the server, so the server's
 * requests per second can be read as a share of what this machine gives any Node program answering them; the
 * ratio travels across machines where the figures do not.
 */
const script = `
import { createServer } from "node:http";
const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    let status = 200;
    let answer;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      answer = JSON.stringify({ passed: true, claims: [], chars: String(body.text ?? "").length });
    } catch {
      status = 400;
      answer = JSON.stringify({ code: "invalid-json" });
    }
    response.writeHead(status, { "content-type": "application/json" });
    response.end(answer);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write("READY http://127.0.0.1:" + server.address().port + "\\n"));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
`;

export interface BaselineServer {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

export const startBaselineServer = (): Promise<BaselineServer> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (!match?.[1]) return;
      child.removeAllListeners("exit");
      resolvePromise({
        url: match[1],
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`baseline server exited early (${code}): ${output}`)));
  });
