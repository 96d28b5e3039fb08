import type { OffThreadJsonReader } from "../text/json-text.js";
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
    /** Where a large JSON body is read, when not in the server's thread (see `decodeBody`). */
    readJsonOffThread: OffThreadJsonReader | undefined;
  };
}
