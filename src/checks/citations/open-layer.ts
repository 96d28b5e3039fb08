import { Effect } from "effect";
import type { VerificationLayer } from "../../model/layer.js";
import { type CitationsLayerOptions, makeCitationsLayer } from "./layer.js";
import { openEvidenceStore } from "./store/evidence-store.js";

export interface OpenedCitationsLayer {
  readonly layer: VerificationLayer;
  /** Closes the evidence store (a PGlite database or a PostgreSQL pool). */
  readonly close: () => Promise<void>;
}

/**
 * Opens the evidence store at `target` (postgres:// URL or PGlite directory) and builds the citations layer
 * on it: what `veracity check --evidence <db>` and `veracity eval --layers citations --evidence <db>` need.
 * A store that cannot be opened rejects with its StorageError (passwords removed from the message).
 */
export const openCitationsLayer = async (
  target: string,
  options: Omit<CitationsLayerOptions, "store"> = {},
): Promise<OpenedCitationsLayer> => {
  const exit = await Effect.runPromiseExit(openEvidenceStore(target));
  if (exit._tag === "Failure") {
    const failure = exit.cause._tag === "Fail" ? exit.cause.error : new Error(String(exit.cause));
    throw failure;
  }
  const store = exit.value;
  return {
    layer: makeCitationsLayer({ ...options, store }),
    close: () => Effect.runPromise(Effect.ignore(store.close)),
  };
};

/** The shape of the CLI's layer providers (`registerLayerProvider` in src/cli/build-verifier.ts). */
export interface CitationsLayerProvider {
  readonly name: string;
  readonly layers: (flags: { readonly evidence?: string }) => Promise<readonly VerificationLayer[]>;
}

/**
 * A provider for the CLI: with `--evidence <db>` it opens the store and adds the citations layer; the
 * JSON-RPC fallback comes from `VERACITY_ETH_RPC_URL` when set. Stores it opened are closed by `closeAll`.
 */
export const makeCitationsLayerProvider = (
  env: Readonly<Record<string, string | undefined>> = process.env,
) => {
  const opened: OpenedCitationsLayer[] = [];
  const provider: CitationsLayerProvider = {
    name: "citations",
    layers: async (flags) => {
      if (flags.evidence === undefined) return [];
      const rpcUrl = env.VERACITY_ETH_RPC_URL;
      const citations = await openCitationsLayer(flags.evidence, rpcUrl ? { rpcUrl } : {});
      opened.push(citations);
      return [citations.layer];
    },
  };
  return {
    provider,
    closeAll: () => Promise.all(opened.splice(0).map((entry) => entry.close())).then(() => undefined),
  };
};
