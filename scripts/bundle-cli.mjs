/**
 * Bundles the `veracity` command into dist/cli/main.js (over the file tsc wrote), so that starting it reads a
 * handful of files instead of some 700 modules: on a small `veracity check` most of the start-up time was
 * module loading (see docs/BENCHMARKS.md, CLI start-up). The library entry points stay as tsc wrote them; the
 * verifier's worker has a bundle of its own (scripts/bundle-worker.mjs, run before this one: the build's last
 * step writes dist/cli/main.js, whose time says when the build finished).
 *
 * Packages that load native code, WebAssembly, worker files or optional provider SDKs stay outside the bundle
 * and load from node_modules when a command needs them. The chunks sit beside main.js, in dist/cli, so paths
 * the code resolves from its own location (`../../package.json`) mean the same as in the tsc output.
 */
import { chmodSync } from "node:fs";
import { build } from "esbuild";
import { external } from "./bundle-settings.mjs";

await build({
  entryPoints: { main: "src/cli/main.ts" },
  outdir: "dist/cli",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  chunkNames: "bundle-[hash]",
  allowOverwrite: true,
  legalComments: "none",
  logLevel: "warning",
  // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __veracityCreateRequire } from "node:module"; const require = __veracityCreateRequire(import.meta.url);',
  },
});

// The command runs as a file (`npx veracity`, a linked bin): it must be executable whoever links it and when.
// npm sets the mode when it links a bin, but a bin linked before a rebuild (npx keeps its link to a project
// per path) meets the new file as written, which is not.
chmodSync("dist/cli/main.js", 0o755);
