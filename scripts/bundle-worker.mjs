/**
 * Bundles the verification pool's worker into dist/facade/worker-pool/verify-worker.js (over the file tsc
 * wrote), so that a worker starts by reading one file instead of the some 700 modules of the verifier: a new
 * worker answered its first call after 740-830 ms unbundled and 240-310 ms bundled (2 cores, 2026-11-27; see
 * docs/BENCHMARKS.md). Every worker start pays this: the pool's workers when a server starts, the large lane's
 * first call, a worker replaced after a deadline or a crash. The library's other files stay as tsc wrote them,
 * and the pool starts this file wherever its code runs from (dist/facade/worker-pool, or dist/cli in the
 * bundled command, see worker-slots.ts).
 *
 * The bundle sits where tsc's file was, two folders below dist/. A module inside it that resolved a path from
 * its own location (`new URL("../../package.json", import.meta.url)`) would resolve it from this folder instead
 * of its own, so the build fails when any module bundled here reads `import.meta`: such a module needs the
 * bundle to keep its folder, or to stay outside it.
 */
import { writeFileSync } from "node:fs";
import { build } from "esbuild";
import { external, requireBanner } from "./bundle-settings.mjs";

const outfile = "dist/facade/worker-pool/verify-worker.js";
const result = await build({
  entryPoints: ["src/facade/worker-pool/verify-worker.ts"],
  outfile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  legalComments: "none",
  logLevel: "warning",
  banner: requireBanner,
  write: false,
});
const [output] = result.outputFiles;
const text = output.text;
const uses = text.split("import.meta").length - 1;
const bannerUses = requireBanner.js.split("import.meta").length - 1;
if (uses !== bannerUses)
  throw new Error(
    `${outfile}: a bundled module reads import.meta (${uses - bannerUses} times): it would resolve paths from the worker's folder`,
  );
writeFileSync(outfile, text);
