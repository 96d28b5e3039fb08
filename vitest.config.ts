import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const projectRoot = fileURLToPath(new URL(".", import.meta.url));

const include = ["src/**/*.test.ts", "test/**/*.test.ts"];

/**
 * Test files that read the clock (`performance.now()`, `Date.now() - start`, CPU usage) to hold code to a time
 * bound: a request answered within its timeout, a pattern run within its budget, a doubling ratio. They run
 * one at a time after the others, on an otherwise idle machine, so another test file's work cannot push them
 * past their bound. Found by reading the files, so a new timed test joins them without a list to keep.
 *
 * A file whose clock readings a busy machine cannot fail says so with a `// timing holds under load:` comment
 * giving the reason (it only checks that a wait lasted at least so long, or that a deadline the code enforces
 * was kept with seconds to spare), and runs with the others.
 */
const readsTheClock =
  /performance\.now\(\)|Date\.now\(\)\s*-\s*[A-Za-z_(]|process\.cpuUsage\(|threadCpuMicros\(|pairedCostRatio\(|process\.hrtime/;
const holdsUnderLoad = /\/\/ timing holds under load: \S/;

/**
 * Test files that change what the whole process shares: Vitest's mocks, spies, timers or module registry
 * (`vi.`), the environment, the working directory, a global. Each runs in a process of its own. The other
 * files run one after another in a few long-lived processes, sharing the modules they import: importing the
 * verifier's module graph again in a new process for each file cost more than most files' tests (149 short
 * files: 220 s and 418 s of CPU each in a process of their own, 66 s and 120 s sharing).
 */
const changesProcessState =
  /\bvi\.|process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|Object\.assign\(process\.env|process\.chdir\(|globalThis\.\w+\s*=(?!=)/;

const testFiles = ["src", "test"].flatMap((folder) =>
  readdirSync(join(projectRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => `${folder}/${file.split(sep).join("/")}`)
    .map((file) => ({ file, text: readFileSync(join(projectRoot, file), "utf8") })),
);
const timedFiles = testFiles
  .filter(({ text }) => readsTheClock.test(text) && !holdsUnderLoad.test(text))
  .map(({ file }) => file);
const isolatedFiles = testFiles
  .filter(({ file, text }) => !timedFiles.includes(file) && changesProcessState.test(text))
  .map(({ file }) => file);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include,
          exclude: [...configDefaults.exclude, ...timedFiles, ...isolatedFiles],
          isolate: false,
          // Most files wait on servers, child processes and databases more than they compute, so one file
          // per core (Vitest's default leaves one core out) keeps the machine busy.
          maxWorkers: Math.max(2, availableParallelism()),
        },
      },
      {
        extends: true,
        test: { name: "isolated", include: isolatedFiles, maxWorkers: Math.max(2, availableParallelism()) },
      },
      {
        extends: true,
        test: { name: "timed", include: timedFiles, maxWorkers: 1, fileParallelism: false },
      },
    ],
  },
});
