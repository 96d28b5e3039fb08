import type { PGlite, protocol as PgliteProtocol, types as PgliteTypes } from "@electric-sql/pglite";
import type { SqlParameter } from "./sql-client.js";

/** What a one-trip query needs of the PGlite module, which is imported only when a store is first opened. */
export interface PgliteWire {
  readonly serialize: typeof PgliteProtocol.serialize;
  readonly parseType: typeof PgliteTypes.parseType;
}

/**
 * A parameter's text as PostgreSQL reads it, whatever type the statement gives the parameter: the rules
 * node-postgres follows for PostgreSQL itself, so both stores receive the same text. A date goes as its
 * instant in UTC; an array as an array literal, each element quoted.
 */
export const parameterText = (value: SqlParameter | undefined): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  return String(value);
};

/**
 * An element of an array literal: NULL, a nested array as its own literal, else quoted (inside double quotes
 * only the quote and the backslash need a backslash before them).
 */
const arrayElement = (value: SqlParameter): string => {
  const text = parameterText(value);
  if (text === null) return "NULL";
  return Array.isArray(value) ? text : `"${text.replace(/[\\"]/g, "\\$&")}"`;
};

const arrayLiteral = (values: readonly SqlParameter[]): string => `{${values.map(arrayElement).join(",")}}`;

const joined = (parts: readonly Uint8Array[]): Uint8Array => {
  const bytes = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
};

interface FieldDescription {
  readonly name: string;
  readonly dataTypeID: number;
}

/**
 * One parameterized statement sent to PGlite in a single call: Parse, Bind, Describe, Execute and Sync go
 * together, as a PostgreSQL client sends them down one connection, and the rows are read from the answer.
 * `PGlite.query` makes six calls into the database for the same statement (it first asks for the parameters'
 * types, to write each parameter by its type), and those calls were most of a small statement's time: a
 * one-parameter SELECT took 236-339 µs that way and 129-191 µs this way, a one-row INSERT 287-330 µs and
 * 206-217 µs (measured side by side, docs/BENCHMARKS.md, 2026-11-27). Parameters are written by their
 * JavaScript type instead, as node-postgres writes them for PostgreSQL (`parameterText`); rows are read with
 * the database's own parsers, as `PGlite.query` reads them. A statement that fails rejects with PostgreSQL's
 * error; the Sync sent with it has already ended the failed statement, so the connection is ready for the next.
 *
 * Not serialized here: two calls in flight at once would read each other's replies, so the caller runs them
 * one after another (pglite-client.ts queues every statement and script of a database in turn).
 */
export const oneTripQuery = async <Row>(
  database: PGlite,
  wire: PgliteWire,
  sql: string,
  params: readonly SqlParameter[],
): Promise<Row[]> => {
  const { serialize, parseType } = wire;
  const message = joined([
    serialize.parse({ text: sql, types: [] }),
    serialize.bind({ values: params.map(parameterText) }),
    serialize.describe({ type: "P" }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  // The stream form parses the replies as they come and keeps no copy of their bytes.
  const messages = await database.execProtocolStream(message, { throwOnError: false });
  let fields: readonly FieldDescription[] = [];
  const rows: Row[] = [];
  for (const reply of messages) {
    if (reply.name === "error") throw reply;
    if (reply.name === "rowDescription")
      fields = (reply as unknown as { fields: readonly FieldDescription[] }).fields;
    else if (reply.name === "dataRow") {
      const values = (reply as unknown as { fields: readonly (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      for (let column = 0; column < values.length; column++) {
        const field = fields[column] as FieldDescription;
        row[field.name] = parseType(values[column] ?? null, field.dataTypeID, database.parsers);
      }
      rows.push(row as Row);
    }
  }
  return rows;
};
