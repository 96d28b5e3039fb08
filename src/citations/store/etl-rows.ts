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
}
