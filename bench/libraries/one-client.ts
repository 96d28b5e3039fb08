import { Worker } from "node:worker_threads";
import { post } from "./server-load.js";

/** What one request got: its status (or, when it failed, the connection error's code) and its milliseconds. */
export interface TimedAnswer {
  readonly status: string;
  readonly ms: number;
}

/** One POST, answered as a `TimedAnswer` whatever happened (a failed connection is an answer too). */
export const timedPost = (
  url: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<TimedAnswer> =>
  post(url, headers, body).then(
    ({ status, ms }) => ({ status: String(status), ms }),
    (error: Error) => ({ status: (error.cause as { code?: string } | undefined)?.code ?? "failed", ms: 0 }),
  );

/**
 * One client in a thread of its own (one-client-worker.ts) that, after `startAfterMs`, POSTs `bodies` to `url`
 * one after the other. `stop` ends it and resolves with its answers. A bench measures a client this way when the
 * thread running its load would otherwise delay the client's answers.
 */
export const startOneClient = (
  url: string,
  headers: Record<string, string>,
  bodies: readonly string[],
  startAfterMs: number,
): { readonly stop: () => Promise<TimedAnswer[]> } => {
  // A TypeScript worker, loaded through tsx by the pool's own loader for workers run from sources.
  const client = new Worker(new URL("../../src/facade/worker-pool/run-from-sources.mjs", import.meta.url), {
    workerData: {
      sourceEntry: new URL("./one-client-worker.ts", import.meta.url).href,
      url,
      headers,
      bodies,
      startAfterMs,
    },
  });
  const answers = new Promise<TimedAnswer[]>((resolve) => client.once("message", resolve));
  return {
    stop: async () => {
      client.postMessage("stop");
      const answered = await answers;
      await client.terminate();
      return answered;
    },
  };
};
