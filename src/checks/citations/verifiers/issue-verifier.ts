import { trimEndWhere } from "../../../text/trim.js";
import { makeHttpLookupVerifier } from "./http-lookup-verifier.js";
import type { CitationVerifier } from "./verifier.js";

export interface IssueVerifierOptions {
  /** GitHub-style base: `https://api.github.com/repos/<owner>/<repo>`; issues are `GET {endpoint}/issues/{n}`. */
  readonly endpoint: string;
  /** Sent as `Authorization: Bearer <token>`; never logged. */
  readonly token?: string;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  /** Fetch function (tests pass one bound to a local server); the global fetch by default. */
  readonly fetch?: typeof fetch;
}

/** Issue references (#123, GH-456) checked for existence on a configured tracker (GitHub API shape). */
export const makeIssueVerifier = (options: IssueVerifierOptions): CitationVerifier =>
  makeHttpLookupVerifier({
    name: "issues",
    kinds: ["issue"],
    urlFor: (number) =>
      `${trimEndWhere(options.endpoint, (character) => character === "/")}/issues/${encodeURIComponent(number)}`,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
