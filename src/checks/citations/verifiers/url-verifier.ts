import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Effect } from "effect";
import { type CitationCheck, citationKey } from "../citation.js";
import { isForbiddenAddress } from "./address-policy.js";
import { type CitationChecks, type CitationVerifier, checkError, notFound, verified } from "./verifier.js";

/** Resolves a host name to IP addresses; injectable so tests need no network. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

export interface UrlVerifierOptions {
  readonly resolve?: HostResolver;
  /** Host names or IP literals that may be reached even when private or loopback. */
  readonly allowHosts?: readonly string[];
  /** Per URL, all hops included. Default 5 s. */
  readonly timeoutMs?: number;
  /** Default 5. */
  readonly maxRedirects?: number;
  /** Most body bytes read from a GET before the connection is cut. Default 64 KiB. */
  readonly maxBytes?: number;
  readonly concurrency?: number;
  /** Most distinct URLs checked per batch; the rest are ERROR. Default 100. */
  readonly maxUrls?: number;
}

const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

interface HopAnswer {
  readonly status: number;
  readonly location?: string;
  readonly bytesRead: number;
  readonly cut: boolean;
}

class Refused extends Error {}

/** One request to an already vetted address, with the host name kept for the Host header and TLS. */
const request = (url: URL, address: string, method: "HEAD" | "GET", maxBytes: number, signal: AbortSignal) =>
  new Promise<HopAnswer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const outgoing = client.request(
      {
        protocol: url.protocol,
        host: address,
        port: url.port || (url.protocol === "https:" ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method,
        headers: { host: url.host, "user-agent": "veracity-citation-check", accept: "*/*" },
        servername: isIP(url.hostname) ? undefined : url.hostname,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        let bytesRead = 0;
        let done = false;
        const finish = (cut: boolean) => {
          if (done) return;
          done = true;
          resolve({ status, bytesRead, cut, ...(location === undefined ? {} : { location }) });
        };
        response.on("data", (chunk: Buffer) => {
          bytesRead += chunk.length;
          if (bytesRead >= maxBytes) {
            finish(true);
            response.destroy();
          }
        });
        response.on("end", () => finish(false));
        response.on("error", (error) => (done ? undefined : reject(error)));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });

/**
 * URL citations checked with HEAD, then GET when HEAD is not answered with success. Every hop is resolved and
 * refused when it reaches a loopback, private, link-local, multicast or metadata address that is not
 * allow-listed; the connection goes to the vetted address (no second DNS answer). Redirects, time and body
 * bytes are capped.
 */
export const makeUrlVerifier = (options: UrlVerifierOptions = {}): CitationVerifier => {
  const resolve = options.resolve ?? systemResolver;
  const allowed = new Set((options.allowHosts ?? []).map((host) => host.toLowerCase()));
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const timeoutMs = options.timeoutMs ?? 5000;

  const vettedAddress = async (url: URL): Promise<string> => {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new Refused(`scheme ${url.protocol} not allowed`);
    if (url.username || url.password) throw new Refused("credentials in URL not allowed");
    const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const addresses = isIP(hostname) ? [hostname] : await resolve(hostname);
    if (addresses.length === 0) throw new Refused(`${hostname} does not resolve`);
    if (allowed.has(hostname)) return addresses[0] as string;
    const forbidden = addresses.find((address) => isForbiddenAddress(address) && !allowed.has(address));
    if (forbidden !== undefined)
      throw new Refused(`${hostname} resolves to a forbidden address (${forbidden})`);
    return addresses[0] as string;
  };

  const checkUrl = async (raw: string, signal: AbortSignal): Promise<CitationCheck> => {
    let url = new URL(raw);
    for (let hop = 0; hop <= maxRedirects; hop += 1) {
      const address = await vettedAddress(url);
      let answer = await request(url, address, "HEAD", maxBytes, signal);
      if (answer.status >= 400 || answer.status < 200)
        answer = await request(url, address, "GET", maxBytes, signal);
      if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
        url = new URL(answer.location, url);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300)
        return verified("url", `HTTP ${answer.status}${answer.cut ? `, body cut at ${maxBytes} bytes` : ""}`);
      if (answer.status === 404 || answer.status === 410) return notFound("url", `HTTP ${answer.status}`);
      return checkError("url", `HTTP ${answer.status}: existence not confirmed`);
    }
    return checkError("url", `more than ${maxRedirects} redirects`);
  };

  const check = (raw: string): Effect.Effect<CitationCheck> =>
    Effect.tryPromise((signal) => {
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      return checkUrl(raw, deadline);
    }).pipe(
      Effect.catchAll(({ error }) => {
        const cause = error instanceof Error ? error : new Error(String(error));
        if (cause instanceof Refused) return Effect.succeed(checkError("url", `refused: ${cause.message}`));
        if (cause.name === "TimeoutError" || cause.name === "AbortError")
          return Effect.succeed(checkError("url", `timed out after ${timeoutMs} ms`));
        return Effect.succeed(checkError("url", `request failed: ${cause.message}`));
      }),
    );

  return {
    name: "url",
    kinds: ["url"],
    verify: (citations) => {
      const urls = [...new Set(citations.map((citation) => citation.value))];
      const limit = options.maxUrls ?? 100;
      return Effect.forEach(
        urls,
        (url, index) =>
          Effect.map(
            index < limit
              ? check(url)
              : Effect.succeed(checkError("url", `more than ${limit} URLs in one text`)),
            (result) => [citationKey("url", url), result] as const,
          ),
        { concurrency: options.concurrency ?? 4 },
      ).pipe(Effect.map((entries) => new Map(entries) as CitationChecks));
    },
  };
};
