import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { DatasetError } from "./errors.js";

export interface DownloadOptions {
  /** Longest wait for the response to start or for the next chunk of the body. */
  readonly idleTimeoutMs: number;
  /** Largest file accepted; a larger one is refused before or while it is read. */
  readonly maxBytes: number;
  /** Called after each chunk with the bytes read so far and the announced total, when there is one. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
}

export interface Downloaded {
  readonly bytes: number;
  readonly sha256: string;
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * Only HTTPS, except plain HTTP to this machine's loopback interface (a local mirror, or the fixture
 * server of the tests): the checksum protects the bytes, HTTPS keeps what is fetched private and whole.
 */
export const assertSecureUrl = (url: URL): void => {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && loopbackHosts.has(url.hostname)) return;
  throw new DatasetError({
    message: `refusing ${url.href}: datasets are downloaded over HTTPS (plain HTTP only on loopback)`,
    code: "insecure-url",
  });
};

const causeCode = (error: unknown): string => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  return String(cause?.code ?? cause?.message ?? (error as Error).message);
};

/**
 * Streams `url` into `destination` (a temporary path chosen by the caller), computing its SHA-256 on the
 * way. Fails with a DatasetError on a non-2xx status, a network failure, a stall longer than the idle
 * timeout, a body shorter than its Content-Length (an interrupted transfer) or a body over `maxBytes`. The
 * caller removes `destination` on failure.
 */
export const downloadTo = async (
  url: URL,
  destination: string,
  options: DownloadOptions,
): Promise<Downloaded> => {
  assertSecureUrl(url);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.idleTimeoutMs);
  };
  const stalled = () =>
    new DatasetError({
      message: `${url.href}: no data for ${options.idleTimeoutMs} ms (server too slow or unreachable)`,
      code: "timeout",
    });
  arm();
  let response: Response;
  try {
    response = await fetch(url, { signal: controller.signal, redirect: "follow" });
  } catch (error) {
    clearTimeout(timer);
    if (timedOut) throw stalled();
    throw new DatasetError({
      message: `${url.href}: cannot connect (${causeCode(error)}); check the network, or use a mirror with --mirror`,
      code: "network",
    });
  }
  const file = await open(destination, "w");
  try {
    assertSecureUrl(new URL(response.url || url.href));
    if (!response.ok || response.body === null) {
      throw new DatasetError({
        message: `${url.href}: HTTP ${response.status} ${response.statusText}`.trim(),
        code: "http-status",
      });
    }
    const announced = Number(response.headers.get("content-length") ?? Number.NaN);
    const total = Number.isFinite(announced) ? announced : undefined;
    if (total !== undefined && total > options.maxBytes) {
      throw new DatasetError({
        message: `${url.href}: ${total} bytes is over the ${options.maxBytes}-byte limit`,
        code: "too-large",
      });
    }
    const hash = createHash("sha256");
    let received = 0;
    const reader = response.body.getReader();
    for (;;) {
      arm();
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (timedOut) throw stalled();
        throw new DatasetError({
          message: `${url.href}: transfer interrupted after ${received} bytes (${causeCode(error)})`,
          code: "interrupted",
        });
      }
      if (chunk.done) break;
      received += chunk.value.byteLength;
      if (received > options.maxBytes) {
        await reader.cancel();
        throw new DatasetError({
          message: `${url.href}: more than ${options.maxBytes} bytes`,
          code: "too-large",
        });
      }
      hash.update(chunk.value);
      await file.write(chunk.value);
      options.onProgress?.(received, total);
    }
    if (total !== undefined && received !== total) {
      throw new DatasetError({
        message: `${url.href}: transfer interrupted: ${received} of ${total} bytes received`,
        code: "interrupted",
      });
    }
    return { bytes: received, sha256: hash.digest("hex") };
  } finally {
    clearTimeout(timer);
    controller.abort();
    await file.close();
  }
};
