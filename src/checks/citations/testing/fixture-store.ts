import path from "node:path";
import { fileURLToPath } from "node:url";
import { Effect } from "effect";
import { makePgliteClient } from "../../../storage/pglite-client.js";
import { type EvidenceStore, prepareEvidenceStore } from "../store/evidence-store.js";

/** The few ethereum-etl records copied into the repository for unit tests (MIT, see fixtures/ethereum/SOURCE.md). */
export const fixtureDirectory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../fixtures/ethereum",
);

/** An in-memory PGlite evidence store loaded with the fixture records. */
export const openFixtureStore = (): Effect.Effect<EvidenceStore, unknown> =>
  Effect.gen(function* () {
    const store = yield* Effect.flatMap(makePgliteClient("memory://"), prepareEvidenceStore);
    yield* store.importEthereumEtl(fixtureDirectory);
    return store;
  });
