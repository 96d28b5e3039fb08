import { fileURLToPath } from "node:url";

/**
 * The licence texts shipped with the package (examples/data/licenses), copied beside every fetched dataset.
 * Resolved from this module, so it works from the sources (src/datasets) and the build (dist/datasets).
 */
export const bundledLicenceDir = (): string =>
  fileURLToPath(new URL("../../examples/data/licenses/", import.meta.url));
