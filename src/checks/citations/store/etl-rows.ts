const hash32 = /^0x[0-9a-fA-F]{64}$/;
const address20 = /^0x[0-9a-fA-F]{40}$/;
const unsignedInteger = /^\d{1,80}$/;

/** Reads a field of an ethereum-etl row, or says why it cannot. */
export class RowReader {
  constructor(private readonly row: Record<string, unknown>) {}

  hash(name: string): string {
    const value = this.row[name];
    if (typeof value !== "string" || !hash32.test(value)) throw new Error(`${name} is not a 32-byte hash`);
    return value.toLowerCase();
  }

  optionalHash(name: string): string | null {
    return this.row[name] === null || this.row[name] === undefined ? null : this.hash(name);
  }

  address(name: string): string {
    const value = this.row[name];
    if (typeof value !== "string" || !address20.test(value)) throw new Error(`${name} is not an address`);
    return value.toLowerCase();
  }

  optionalAddress(name: string): string | null {
    return this.row[name] === null || this.row[name] === undefined ? null : this.address(name);
  }

  integer(name: string): string {
    const value = this.row[name];
    const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof text !== "string" || !unsignedInteger.test(text))
      throw new Error(`${name} is not a whole number`);
    return text.replace(/^0+(?=\d)/, "");
  }

  optionalInteger(name: string): string | null {
    return this.row[name] === null || this.row[name] === undefined ? null : this.integer(name);
  }

  optionalText(name: string, maxLength = 200): string | null {
    const value = this.row[name];
    if (value === null || value === undefined) return null;
    if (typeof value !== "string" && typeof value !== "number") throw new Error(`${name} is not text`);
    return String(value).slice(0, maxLength);
  }

  /** Log topics: a JSON array of 32-byte hashes, or the comma-separated list of a CSV export. */
  topics(name: string): string[] {
    const value = this.row[name];
    const list = Array.isArray(value)
      ? value
      : typeof value === "string"
        ? value.split(",").filter(Boolean)
        : undefined;
    if (list === undefined || list.length > 4) throw new Error(`${name} is not a list of at most 4 topics`);
    return list.map((topic) => {
      if (typeof topic !== "string" || !hash32.test(topic)) throw new Error(`${name} holds a non-hash topic`);
      return topic.toLowerCase();
    });
  }

  /** A `0x` hex string of bytes (log data), or null. */
  optionalHexData(name: string): string | null {
    const value = this.row[name];
    if (value === null || value === undefined) return null;
    if (typeof value !== "string" || !/^0x[0-9a-fA-F]*$/.test(value))
      throw new Error(`${name} is not hex data`);
    return value.toLowerCase();
  }
}
