import type { AuthenticatedKey } from "../../keys/api-keys.js";

export interface KeyCacheOptions {
  /** How long a successful lookup is reused; a revoked key stops working within this time (default 30 s). */
  readonly ttlMs: number;
  readonly maxEntries: number;
}

export const defaultKeyCacheOptions: KeyCacheOptions = { ttlMs: 30_000, maxEntries: 10_000 };

/**
 * Successful key lookups of this instance, by key hash, for `ttlMs`: spares one query per request. Unknown keys
 * are never cached (a key created on another instance works at once). Bounded: the oldest entry goes first.
 */
export const makeKeyCache = (options: KeyCacheOptions = defaultKeyCacheOptions) => {
  const entries = new Map<string, { readonly found: AuthenticatedKey; readonly expires: number }>();
  return {
    get: (keyHash: string, now: number): AuthenticatedKey | undefined => {
      const entry = entries.get(keyHash);
      if (entry === undefined) return undefined;
      if (entry.expires > now) return entry.found;
      entries.delete(keyHash);
      return undefined;
    },
    set: (found: AuthenticatedKey, now: number): void => {
      if (options.ttlMs <= 0) return;
      entries.delete(found.keyHash);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(found.keyHash, { found, expires: now + options.ttlMs });
    },
  };
};
