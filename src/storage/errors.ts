import { Schema } from "effect";

/** A storage operation failed: the database could not be opened, a query failed, a transaction broke. */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  /** What was being done: `open`, `query`, `transaction`, `migrate`, `close`. */
  operation: Schema.String,
  message: Schema.String,
}) {}

const credentialsInUrl = /\/\/([^/@\s:]+):([^/@\s]*)@/g;
const passwordParameter = /(password=)[^&\s]*/gi;

/** Removes passwords from connection strings so they never reach a message or a log. */
export const redactSecrets = (text: string): string =>
  text.replace(credentialsInUrl, "//$1:***@").replace(passwordParameter, "$1***");

/** Wraps an unknown driver failure as a `StorageError` with secrets removed. */
export const toStorageError =
  (operation: string) =>
  (cause: unknown): StorageError =>
    new StorageError({
      operation,
      message: redactSecrets(cause instanceof Error ? cause.message : String(cause)),
    });
