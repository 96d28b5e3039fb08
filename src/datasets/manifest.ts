import { Schema } from "effect";

/** What `datasets fetch` recorded about a cached dataset: the source, every file's digest, the outputs. */
export const DatasetManifest = Schema.Struct({
  name: Schema.String,
  repository: Schema.String,
  commit: Schema.String,
  licence: Schema.String,
  attribution: Schema.String,
  converterVersion: Schema.Number,
  fetchedAt: Schema.String,
  upstream: Schema.Array(
    Schema.Struct({
      path: Schema.String,
      url: Schema.String,
      bytes: Schema.Number,
      sha256: Schema.String,
      /** false when the registry had no pinned digest and the user passed --trust-unpinned. */
      pinned: Schema.Boolean,
    }),
  ),
  outputs: Schema.Array(Schema.Struct({ name: Schema.String, sha256: Schema.String, lines: Schema.Number })),
  skipped: Schema.Record({ key: Schema.String, value: Schema.Number }),
});
export type DatasetManifest = typeof DatasetManifest.Type;

export const manifestFileName = "manifest.json";
