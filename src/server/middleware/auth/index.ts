import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { SqlClientService } from "../../../storage/sql-client.js";
import type { ServerEnv } from "../../env.js";
import { hashApiKey, makeKeyLookups } from "../../keys/api-keys.js";
import { requireRouteRole } from "../../roles.js";
import { ApiProblem } from "../problem/index.js";
import { defaultKeyCacheOptions, type KeyCacheOptions, makeKeyCache } from "./key-cache.js";

/** The cookie the review UI keeps the key in: HttpOnly, SameSite=Strict, never readable by scripts. */
export const sessionCookieName = "veracity_key";

export type KeyLocation = "bearer" | "cookie";

const presentedKey = (context: Context, location: KeyLocation): string | undefined => {
  if (location === "cookie") return getCookie(context, sessionCookieName);
  const header = context.req.header("authorization");
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
};

/**
 * Authenticates the request by API key (a bearer token for the API, the session cookie for the UI): the key is
 * hashed and looked up (the keys of one turn of the event loop in one statement, `makeKeyLookups`); the user
 * it maps to becomes `userId`, its role `role`. Missing or unknown keys get 401; a key below the route's role
 * gets 403 (roles.ts).
 */
export const authenticate = (
  sql: SqlClientService,
  location: KeyLocation,
  onMissing?: (context: Context) => Response,
  cacheOptions: KeyCacheOptions = defaultKeyCacheOptions,
): MiddlewareHandler<ServerEnv> => {
  const cache = makeKeyCache(cacheOptions);
  const lookUpStored = makeKeyLookups(sql);
  const lookUp = async (key: string) => {
    const now = Date.now();
    const cached = cache.get(hashApiKey(key), now);
    if (cached !== undefined) return cached;
    const found = await lookUpStored(key);
    if (found !== undefined) cache.set(found, now);
    return found;
  };
  return async (context, next) => {
    const key = presentedKey(context, location);
    const found = key === undefined ? undefined : await lookUp(key);
    if (found === undefined) {
      if (onMissing) return onMissing(context);
      throw new ApiProblem(
        401,
        key === undefined ? "missing-credentials" : "invalid-credentials",
        key === undefined
          ? "send an API key as 'Authorization: Bearer <key>'"
          : "the API key is unknown or revoked",
        { "www-authenticate": 'Bearer realm="veracity"' },
      );
    }
    context.set("userId", found.userId);
    context.set("keyHash", found.keyHash);
    context.set("role", found.kind);
    requireRouteRole(context);
    await next();
  };
};
