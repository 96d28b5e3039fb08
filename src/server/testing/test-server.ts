import { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import type { ServerLimits } from "../deps.js";
import { type RunningServer, type ServerOptions, startServer } from "../start.js";

/** A logger whose lines are kept in memory, so tests can check what reaches the logs. */
export const capturedLogger = (): { readonly logger: Logger; readonly lines: string[] } => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
};

export interface TestServer extends RunningServer {
  readonly logLines: string[];
  /** JSON request with the given key; returns status, headers and the parsed body. */
  readonly call: (
    method: string,
    path: string,
    options?: {
      readonly key?: string;
      readonly body?: unknown;
      readonly rawBody?: string;
      readonly contentType?: string;
    },
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  ) => Promise<{ readonly status: number; readonly headers: Headers; readonly body: any }>;
}

/** A real server on 127.0.0.1, a free port and an in-memory PGlite database. */
export const startTestServer = async (
  limits: Partial<ServerLimits> = {},
  overrides: Pick<
    ServerOptions,
    | "checker"
    | "verifyWorkers"
    | "largeRequestChars"
    | "config"
    | "repositoryDir"
    | "env"
    | "evidence"
    | "model"
    | "database"
    | "warmUpMs"
  > = {},
): Promise<TestServer> => {
  const { logger, lines } = capturedLogger();
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    database: "memory://",
    logger,
    limits,
    env: {},
    // One verification worker whatever the machine: the same threads on every machine the tests run on, and
    // no more started than the checks under test need (the default pool is sized to the cores).
    verifyWorkers: 1,
    // No warm-up of the memory gate: a test server starts on an empty store and measures nothing; the warm-up's
    // own test turns it back on.
    warmUpMs: 0,
    ...overrides,
  });
  return {
    ...server,
    logLines: lines,
    call: async (method, path, options = {}) => {
      const headers: Record<string, string> = {};
      if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers["content-type"] = options.contentType ?? "application/json";
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
};
