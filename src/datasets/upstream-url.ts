import type { DatasetSpec, UpstreamFile } from "./spec.js";

/** GitHub's raw file host: a file at a commit is `https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH`. */
export const defaultMirror = "https://raw.githubusercontent.com";

/** The URL of one upstream file at the pinned commit, under `mirror` (same layout as GitHub's raw host). */
export const upstreamUrl = (spec: DatasetSpec, file: UpstreamFile, mirror: string = defaultMirror): URL => {
  const base = mirror.endsWith("/") ? mirror : `${mirror}/`;
  const path = [...spec.repository.split("/"), spec.commit, ...file.path.split("/")]
    .map(encodeURIComponent)
    .join("/");
  return new URL(path, base);
};
