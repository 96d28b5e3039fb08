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
 */
const readsTheClock =
  /performance\.now\(\)|Date\.now\(\)\s*-\s*[A-Za-z_(]|process\.cpuUsage\(|process\.hrtime/;
const timedFiles = ["src", "test"].flatMap((folder) =>
  readdirSync(join(projectRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => `${folder}/${file.split(sep).join("/")}`)
    .filter((file) => readsTheClock.test(readFileSync(join(projectRoot, file), "utf8"))),
);

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
          exclude: [...configDefaults.exclude, ...timedFiles],
          // Most files wait on servers, child processes and databases more than they compute, so one file
          // per core (Vitest's default leaves one core out) keeps the machine busy.
          maxWorkers: Math.max(2, availableParallelism()),
        },
      },
      {
        extends: true,
        test: { name: "timed", include: timedFiles, maxWorkers: 1, fileParallelism: false },
      },
    ],
  },
});
