import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("the built worker", () => {
  it("is one file: it imports Node's modules and packages, none of the package's own files", () => {
    const built = readFileSync(
      new URL("../../../dist/facade/worker-pool/verify-worker.js", import.meta.url),
      "utf8",
    );
    const specifiers = [...built.matchAll(/^\s*import\s[^;]*?from\s*["']([^"']+)["']/gm)].map(
      (match) => match[1],
    );
    const dynamic = [...built.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
    // The createRequire line every bundle starts with: the reading of the imports finds at least it.
    expect(specifiers).toContain("node:module");
    expect([...specifiers, ...dynamic].filter((specifier) => specifier?.startsWith("."))).toEqual([]);
  });
});
