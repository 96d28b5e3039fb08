/** One file of a dataset's source repository, pinned by the SHA-256 of its bytes. */
export interface UpstreamFile {
  /** Path inside the source repository at the pinned commit. */
  readonly path: string;
  /**
   * SHA-256 (hex) of the file's bytes at the pinned commit, or `null` when nobody has yet checked the real
   * upstream bytes: such a file is fetched only when the user passes `--trust-unpinned`, and the digest it
   * had is recorded in the cache manifest so a maintainer can pin it.
   */
  readonly sha256: string | null;
}

/** One file the converter writes into the dataset's cache folder. */
export interface ConvertedFile {
  readonly name: string;
  readonly lines: readonly string[];
}

export interface Conversion {
  readonly files: readonly ConvertedFile[];
  /** Upstream rows left out, with why (for example a label outside the two classes). */
  readonly skipped: Readonly<Record<string, number>>;
}

/** The upstream files' text, by path. */
export type UpstreamTexts = ReadonlyMap<string, string>;

/** A public labelled set: where it comes from, under which licence, and how it becomes the common JSONL form. */
export interface DatasetSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** GitHub `owner/name` of the source repository. */
  readonly repository: string;
  /** Full 40-hex commit the files are read at. */
  readonly commit: string;
  readonly files: readonly UpstreamFile[];
  /** SPDX identifier (or identifiers) of the data's licence. */
  readonly licence: string;
  /** Who to credit, and how: printed on fetch and stored beside the data. */
  readonly attribution: string;
  /** Licence texts shipped with the package (under examples/data/licenses/), copied beside the data. */
  readonly licenceFiles: readonly string[];
  /** The labelled file `veracity eval --data NAME` reads, or undefined for an evidence store. */
  readonly evalFile: string | undefined;
  /** Bumped when the converter's output changes, so an older cache is rebuilt. */
  readonly converterVersion: number;
  readonly convert: (texts: UpstreamTexts) => Conversion;
}
