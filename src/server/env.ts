import type { Role } from "./role.js";

/** What middleware puts on the Hono context: the authenticated user, never a field of the body. */
export interface ServerEnv {
  Variables: {
    userId: string;
    keyHash: string;
    /** The key's role: what routes it may call, and the trust its memory writes get (see roles.ts). */
    role: Role;
    /** The error behind a 5xx answer, for the request log (never sent to the client). */
    failure: unknown;
  };
}
