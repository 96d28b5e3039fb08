import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** A request the server refuses, with a stable machine-readable code (RFC 9457 problem details). */
export class ApiProblem extends Error {
  override readonly name = "ApiProblem";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** The request field at fault (`sources`, `text`, `sources[3]`), when the problem is about one. */
    readonly field?: string,
  ) {
    super(detail);
  }
}

const titles: Partial<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Writes a problem+json response; `code` is stable and documented in docs/API.md. */
export const problemResponse = (context: Context, problem: ApiProblem): Response => {
  const body = {
    type: `https://veracity.dev/problems/${problem.code}`,
    title: titles[problem.status] ?? "Error",
    status: problem.status,
    code: problem.code,
    detail: problem.detail,
    instance: context.req.path,
    ...(problem.field === undefined ? {} : { field: problem.field }),
  };
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...problem.headers },
  });
};

/** Tagged errors of the library mapped to HTTP: outages are 5xx, bad input 4xx, never a pass. */
const taggedProblems: Record<string, (message: string) => ApiProblem> = {
  InputError: (message) => new ApiProblem(400, "invalid-input", message),
  ParseError: (message) => new ApiProblem(400, "invalid-input", message),
  CalculationError: (message) => new ApiProblem(422, "calculation-refused", message),
  ReviewItemNotFoundError: (message) => new ApiProblem(404, "review-item-not-found", message),
  ReviewQueueFullError: (message) => new ApiProblem(409, "review-queue-full", message),
  MemoryStoreFullError: (message) => new ApiProblem(409, "memory-store-full", message),
  InsufficientSourcesError: (message) => new ApiProblem(422, "insufficient-sources", message),
  ConfigError: (message) => new ApiProblem(503, "not-configured", message),
  MemoryStoreError: () => new ApiProblem(503, "store-unavailable", "the store is unavailable"),
  StorageError: () => new ApiProblem(503, "store-unavailable", "the store is unavailable"),
  VerificationTimeoutError: (message) => new ApiProblem(504, "verification-timeout", message),
  VerificationError: (message) => new ApiProblem(502, "verification-failed", message),
  VerifierBusyError: (message) => new ApiProblem(503, "verifier-busy", message, { "retry-after": "1" }),
};

/** Converts anything thrown by a handler into an ApiProblem; unknown failures hide their details. */
export const toProblem = (error: unknown): ApiProblem => {
  if (error instanceof ApiProblem) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new ApiProblem(413, "body-too-large", error.message, {}, "body");
    if (error.status === 504 || error.status === 503)
      return new ApiProblem(503, "request-timeout", "the request took longer than the server allows");
    return new ApiProblem(error.status as ContentfulStatusCode, "http-error", error.message);
  }
  const tag = (error as { _tag?: unknown } | undefined)?._tag;
  // A layer that refused the text it was given (too many citations to check them all) failed because of the
  // caller's input: a 422 naming the text, not a 502 as if the layer had broken.
  const cause = (error as { cause?: { _tag?: unknown; code?: unknown; message?: unknown } } | undefined)
    ?.cause;
  if (tag === "VerificationError" && cause?._tag === "InputError")
    return new ApiProblem(422, String(cause.code), String(cause.message), {}, "text");
  const make = typeof tag === "string" ? taggedProblems[tag] : undefined;
  if (make) return make(String((error as Error).message ?? tag));
  return new ApiProblem(500, "internal-error", "the server failed to handle the request");
};

export const problemErrorHandler: ErrorHandler = (error, context) => {
  const problem = toProblem(error);
  if (problem.status >= 500) context.set("failure", error);
  return problemResponse(context, problem);
};

export const problemNotFound: NotFoundHandler = (context) =>
  problemResponse(
    context,
    new ApiProblem(404, "not-found", `no route for ${context.req.method} ${context.req.path}`),
  );
