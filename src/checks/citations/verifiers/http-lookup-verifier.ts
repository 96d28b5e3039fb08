import { Effect } from "effect";
import { type CitationCheck, citationKey } from "../citation.js";
import { type CitationChecks, type CitationVerifier, checkError, notFound, verified } from "./verifier.js";

export interface HttpLookupOptions {
  readonly name: string;
  readonly kinds: readonly string[];
  /** The URL that answers 2xx when the cited thing exists and 404/410 when it does not. */
  readonly urlFor: (value: string) => string;
  /** Sent as `Authorization: Bearer <token>`; never logged. */
  readonly token?: string;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  /** Most distinct values looked up per batch; the rest are ERROR. Default 200. */
  readonly maxLookups?: number;
  /** Fetch function (tests pass one bound to a local server); the global fetch by default. */
  readonly fetch?: typeof fetch;
}

/**
 * Existence through a configured HTTP endpoint (an issue tracker, a ticket system): GET per distinct value,
 * 2xx VERIFIED, 404/410 NOT_FOUND, anything else or no answer in time ERROR. The endpoint is configured by
 * the operator, not taken from the text, and redirects are not followed.
 */
export const makeHttpLookupVerifier = (options: HttpLookupOptions): CitationVerifier => {
  const fetchUrl = options.fetch ?? fetch;
  const limit = options.maxLookups ?? 200;
  const check = (value: string): Effect.Effect<CitationCheck> =>
    Effect.tryPromise(() =>
      fetchUrl(options.urlFor(value), {
        method: "GET",
        redirect: "manual",
        headers: {
          accept: "application/json",
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      }).then(async (response) => {
        await response.body?.cancel();
        return response.status;
      }),
    ).pipe(
      Effect.map((status) =>
        status >= 200 && status < 300
          ? verified(options.name, `${value} exists (HTTP ${status})`)
          : status === 404 || status === 410
            ? notFound(options.name, `${value} not found (HTTP ${status})`)
            : checkError(options.name, `lookup answered HTTP ${status}`),
      ),
      Effect.catchAll(() =>
        Effect.succeed(checkError(options.name, "lookup endpoint unreachable or too slow")),
      ),
    );
  return {
    name: options.name,
    kinds: options.kinds,
    verify: (citations) =>
      Effect.forEach(
        [
          ...new Map(
            citations.map((citation) => [citationKey(citation.kind, citation.value), citation]),
          ).values(),
        ],
        (citation, index) =>
          Effect.map(
            index < limit
              ? check(citation.value)
              : Effect.succeed(checkError(options.name, `more than ${limit} lookups in one text`)),
            (result) => [citationKey(citation.kind, citation.value), result] as const,
          ),
        { concurrency: options.concurrency ?? 4 },
      ).pipe(Effect.map((entries) => new Map(entries) as CitationChecks)),
  };
};
