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
