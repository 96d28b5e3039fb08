/** What middleware puts on the Hono context: the authenticated user, never a field of the body. */
export interface ServerEnv {
  Variables: {
    userId: string;
    keyHash: string;
    /** `agent` keys may not say a memory comes from a trusted source. */
    keyKind: "user" | "agent";
    /** The error behind a 5xx answer, for the request log (never sent to the client). */
    failure: unknown;
  };
}
