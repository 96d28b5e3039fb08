import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Frees the WebAssembly memory finished PGlite instances leave behind. Making a new store runs initdb in
 * WebAssembly instances of its own (PGlite starts a second database for it, beside initdb's module), and the
 * template's copy is dumped from a throwaway in-memory database: once done, their memory (hundreds of megabytes
 * resident) is garbage. V8 frees a WebAssembly memory only when a full collection finds its object unreachable,
 * and that memory does not count towards the heap growth that starts one, so a process that made a new store
 * held it until some later full collection: an idle MCP server with its in-memory store never ran one, and kept
 * about 650 MB resident.
 *
 * The collection runs after the event loop's current turn: the promise reactions of the work just finished still
 * hold its objects until then (collected in the same turn, nothing was freed). One full collection of a heap
 * that has just opened a store takes a few tens of milliseconds, beside initdb's seconds.
 */
export const reclaimWebAssemblyMemory = (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(() => {
      try {
        fullCollection()();
      } catch {
        // Only memory is at stake: a runtime that refuses the collection keeps it until its own.
      }
      resolve();
    });
  });

let collect: (() => void) | undefined;

/**
 * V8's full collection: `globalThis.gc` when the process was started with `--expose-gc`, else the same
 * function taken from a new context made while the flag is briefly set (the flag only exposes `gc` in
 * contexts created under it: the process's own global is left as it was).
 */
const fullCollection = (): (() => void) => {
  if (collect !== undefined) return collect;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") {
    collect = exposed as () => void;
    return collect;
  }
  setFlagsFromString("--expose-gc");
  let taken: unknown;
  try {
    taken = runInNewContext("gc");
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  // A runtime that ignores the flag gives no function: nothing to run, then or later.
  collect = typeof taken === "function" ? (taken as () => void) : () => undefined;
  return collect;
};
