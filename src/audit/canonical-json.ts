/**
 * JSON with object keys sorted at every depth, so equal values always hash equally. The output is exactly
 * `JSON.stringify` with a replacer that rebuilds each object from its sorted entries (the reference in
 * canonical-json.test.ts), written out in one pass without the sorted copies, which kept a busy server's
 * garbage collector and audit hashing at several percent of its CPU.
 */
export const canonicalJson = (value: unknown): string => write(prepare(value, ""), []) as string;

/**
 * What is serialized in place of `value`: the result of its `toJSON`. (Boxed primitives stay objects: the
 * reference rebuilds them from their own keys, so `Object(5)` is `{}`.)
 */
const hasToJSON = (value: unknown): value is { toJSON: (key: string) => unknown } =>
  value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function";

const prepare = (value: unknown, key: string): unknown => (hasToJSON(value) ? value.toJSON(key) : value);

const isArrayIndex = (key: string): boolean => {
  // An index is written in decimal digits: any other first character rules it out without parsing a number.
  const first = key.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return false;
  const index = Number(key) >>> 0;
  return index !== 4_294_967_295 && String(index) === key;
};

/**
 * Object keys as JSON strings, kept for the keys seen most: a result's objects share a handful of keys. Only
 * short keys are kept, so the map's bytes are bounded as well as its entries (4,096 keys of a megabyte each
 * would otherwise stay for the life of the process).
 */
const quotedKeys = new Map<string, string>();
const maxQuotedKeys = 4_096;
const maxQuotedKeyLength = 64;

const quotedKey = (key: string): string => {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < maxQuotedKeys && key.length <= maxQuotedKeyLength) quotedKeys.set(key, quoted);
  }
  return quoted;
};

/**
 * The keys in the order the reference writes them: an object lists array-index keys ("0", "12") first in
 * numeric order whatever their insertion order, so the rebuilt copy has those first (Object.keys already gives
 * them first and ascending), then the other keys sorted.
 */
const sortedKeys = (keys: readonly string[]): string[] => {
  let indexKeys = 0;
  while (indexKeys < keys.length && isArrayIndex(keys[indexKeys] as string)) indexKeys += 1;
  if (indexKeys === 0) return [...keys].sort();
  return [...keys.slice(0, indexKeys), ...keys.slice(indexKeys).sort()];
};

/**
 * Orders worked out before, by the object's first key: the objects of a result are made by a few places, each
 * writing its keys in one order, so the same lists come back in every result (a claim's, an evidence item's, a
 * span's) and each is sorted once. Bounded as `quotedKeys` is: lists of short keys only, at most
 * `maxKeyOrders` of them, at most `maxOrdersPerFirstKey` sharing a first key.
 */
interface KeyOrder {
  readonly keys: readonly string[];
  readonly ordered: readonly string[];
}
const keyOrders = new Map<string, KeyOrder[]>();
const maxKeyOrders = 1_024;
const maxOrdersPerFirstKey = 8;
const maxOrderedKeys = 32;
let keptKeyOrders = 0;

/** Whether two key lists hold the same keys in the same order. */
const sameKeys = (kept: readonly string[], keys: readonly string[]): boolean => {
  if (kept.length !== keys.length) return false;
  for (let at = 0; at < keys.length; at++) if (kept[at] !== keys[at]) return false;
  return true;
};

const keepable = (keys: readonly string[]): boolean =>
  keys.length <= maxOrderedKeys && keys.every((key) => key.length <= maxQuotedKeyLength);

const orderedKeys = (record: object): readonly string[] => {
  const keys = Object.keys(record);
  if (keys.length < 2) return keys;
  const first = keys[0] as string;
  const known = keyOrders.get(first);
  if (known !== undefined) for (const order of known) if (sameKeys(order.keys, keys)) return order.ordered;
  const ordered = sortedKeys(keys);
  if (keptKeyOrders < maxKeyOrders && (known?.length ?? 0) < maxOrdersPerFirstKey && keepable(keys)) {
    const order = { keys, ordered };
    if (known === undefined) keyOrders.set(first, [order]);
    else known.push(order);
    keptKeyOrders += 1;
  }
  return ordered;
};

/** The JSON of an already prepared value, or undefined when it has none (undefined, a function, a symbol). */
const write = (value: unknown, ancestors: object[]): string | undefined => {
  switch (typeof value) {
    case "string":
    case "bigint": // JSON.stringify throws a TypeError for a bigint, as the reference does.
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return "null";
  if (ancestors.includes(value)) throw new TypeError("Converting circular structure to JSON");
  ancestors.push(value);
  let json: string;
  if (Array.isArray(value)) {
    json = "[";
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) json += ",";
      const item: unknown = value[index];
      // `toJSON` is given the element's index as a string; only an element with one needs it written out.
      json += write(hasToJSON(item) ? item.toJSON(String(index)) : item, ancestors) ?? "null";
    }
    json += "]";
  } else {
    const record = value as Record<string, unknown>;
    json = "{";
    let first = true;
    for (const key of orderedKeys(record)) {
      const inner = write(prepare(record[key], key), ancestors);
      if (inner === undefined) continue;
      json += first ? `${quotedKey(key)}:${inner}` : `,${quotedKey(key)}:${inner}`;
      first = false;
    }
    json += "}";
  }
  ancestors.pop();
  return json;
};
