import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * The floor plan's dependency rule (.dependency-cruiser.cjs, docs/ARCHITECTURE.md), run by dependency-cruiser
 * over the real sources and over a small tree built to break it, so the rule is known to be able to fail.
 */
const repoRoot = resolve(import.meta.dirname, "..");
const depcruise = join(repoRoot, "node_modules", ".bin", "depcruise");
const config = join(repoRoot, ".dependency-cruiser.cjs");

const violations = async (cwd: string): Promise<string[]> => {
  const { stdout } = await promisify(execFile)(
    depcruise,
    ["src", "--config", config, "--output-type", "json"],
    { cwd, maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return report.summary.violations.map(
    (violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
  );
};

describe("the dependency rule", () => {
  it("finds no upward import, no import between check families and no import cycle in src", async () => {
    expect(await violations(repoRoot)).toEqual([]);
  }, 120_000);

  it("reports an upward import, an import between check families, a cycle and a folder with no tier", async () => {
    const tree = await mkdtemp(join(tmpdir(), "veracity-floor-plan-"));
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" },
        include: ["src"],
      }),
      // The domain model reaching up to the CLI.
      "src/model/claim.ts": 'import { run } from "../cli/run.js";\nexport const claim = run;\n',
      "src/cli/run.ts": "export const run = 1;\n",
      // One check family importing another.
      "src/checks/numbers/trace.ts":
        'import { ground } from "../grounding/ground.js";\nexport const trace = ground;\n',
      "src/checks/grounding/ground.ts": "export const ground = 1;\n",
      // Two text modules importing each other.
      "src/text/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "src/text/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
      // A folder the plan does not place.
      "src/helpers/util.ts": 'import { claim } from "../model/claim.js";\nexport const util = claim;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await writeFile(join(tree, path), text);
    }
    const found = await violations(tree);
    expect(found).toContain("no-upward-from-model: src/model/claim.ts -> src/cli/run.ts");
    expect(found).toContain(
      "no-check-to-check-from-numbers: src/checks/numbers/trace.ts -> src/checks/grounding/ground.ts",
    );
    expect(found.some((violation) => violation.startsWith("no-circular: src/text/"))).toBe(true);
    expect(found).toContain("every-folder-has-a-tier: src/helpers/util.ts -> src/model/claim.ts");
  }, 120_000);
});
