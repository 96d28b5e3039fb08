/**
 * Bundles the verification pool's worker into dist/facade/worker-pool/verify-worker.js (over the file tsc
 * wrote), so that a worker starts by reading one file instead of the some 700 modules of the verifier: a new
 * worker answered its first call after 742-832 ms unbundled and 163-184 ms bundled (2 cores, 2026-11-28; see
 * docs/BENCHMARKS.md, stop 43). Every worker start pays this: the pool's workers when a server starts, the large lane's
 * first call, a worker replaced after a deadline or a crash. The library's other files stay as tsc wrote them,
 * and the pool starts this file wherever its code runs from (dist/facade/worker-pool, or dist/cli in the
 * bundled command, see worker-slots.ts).
 *
 * Rolldown, not esbuild (which bundles the command, scripts/bundle-cli.mjs): esbuild turns every top-level
 * `const` of a bundle into a `var`, and verification from such a bundle ran 1-5% slower than from tsc's files in
 * paired runs on real payloads. Rolldown keeps them, and its bundle verified as fast as tsc's files.
 *
 * The bundle sits where tsc's file was, two folders below dist/. A module inside it that resolved a path from
 * its own location (`new URL("../../package.json", import.meta.url)`) would resolve it from this folder instead
 * of its own, so the build fails when any module bundled here reads `import.meta` (other than to make a
 * `require`): such a module needs the bundle to keep its folder, or to stay outside it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { rolldown } from "rolldown";
import { external } from "./bundle-settings.mjs";

const outfile = "dist/facade/worker-pool/verify-worker.js";
/** Whether an import stays outside the bundle: Node's own modules, and the packages `external` names. */
const isExternal = (id) =>
  id.startsWith("node:") ||
  external.some((name) =>
    name.endsWith("/*") ? id.startsWith(name.slice(0, -1)) : id === name || id.startsWith(`${name}/`),
  );

const bundle = await rolldown({
  input: "src/facade/worker-pool/verify-worker.ts",
  platform: "node",
  external: isExternal,
  logLevel: "warn",
});
// One file whatever the code imports later, dynamically too: the worker must start by reading one file.
const { output } = await bundle.generate({ format: "esm", codeSplitting: false });
await bundle.close();
if (output.length !== 1)
  throw new Error(`${outfile}: the worker's bundle came out as ${output.length} files`);
const code = output[0].code;
const reads = code.split("import.meta").length - 1;
const forRequire = code.split("createRequire(import.meta.url)").length - 1;
if (reads !== forRequire)
  throw new Error(
    `${outfile}: a bundled module reads import.meta (${reads - forRequire} times): it would resolve paths from the worker's folder`,
  );
mkdirSync(dirname(outfile), { recursive: true });
writeFileSync(outfile, code);
