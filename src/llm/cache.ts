import { createHash } from "node:crypto";

/** A bounded least-recently-used map keyed by the SHA-256 of the request's content. */
export interface ContentCache<V> {
  readonly get: (key: string) => V | undefined;
  readonly set: (key: string, value: V) => void;
  readonly size: () => number;
}

export const contentKey = (content: unknown): string =>
  createHash("sha256").update(JSON.stringify(content)).digest("hex");

export const makeContentCache = <V>(maxEntries: number): ContentCache<V> => {
  const entries = new Map<string, V>();
  return {
    get: (key) => {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set: (key, value) => {
      if (maxEntries <= 0) return;
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    size: () => entries.size,
  };
};
