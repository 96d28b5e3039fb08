/**
 * The floor plan as a dependency rule (see docs/ARCHITECTURE.md). Folders are stacked in tiers; a module may
 * import from its own folder and from folders in lower tiers, never from its tier or above. The four check
 * families under src/checks are rooms of one tier and do not import each other. Tests and test helpers
 * (`*.test.ts`, `testing/` folders, `testing.ts`) may reach anywhere: they assemble what they test.
 */
const tiers = [
  ["model"],
  ["text", "storage", "llm"],
  ["checks", "audit", "report", "mitigation"],
  ["calibration"],
  ["verification", "memory"],
  ["facade", "correction", "metrics", "eval"],
  ["assembly", "datasets"],
  ["server", "integrations"],
  ["cli", "testing", "index.ts"],
];
const checkFamilies = ["grounding", "numbers", "citations", "model-backed"];
const testCode = "(\\.test\\.ts$|/testing/|/testing\\.ts$|^src/testing/)";
const folder = (name) => (name.endsWith(".ts") ? `^src/${name.replace(".", "\\.")}$` : `^src/${name}/`);

const upward = tiers.flatMap((tier, level) =>
  tier.map((name) => {
    const higher = tiers
      .slice(level)
      .flat()
      .filter((other) => other !== name);
    return {
      name: `no-upward-from-${name}`,
      comment: `${name} sits in tier ${level}: it may import only from lower tiers (${tiers
        .slice(0, level)
        .flat()
        .join(", ")}).`,
      severity: "error",
      from: { path: folder(name), pathNot: testCode },
      to: { path: higher.map(folder) },
    };
  }),
);

const betweenChecks = checkFamilies.map((family) => ({
  name: `no-check-to-check-from-${family}`,
  comment: "Each check family stands alone: shared pieces belong in model or text.",
  severity: "error",
  from: { path: `^src/checks/${family}/`, pathNot: testCode },
  to: { path: checkFamilies.filter((other) => other !== family).map((other) => `^src/checks/${other}/`) },
}));

const unplaced = {
  name: "every-folder-has-a-tier",
  comment:
    "A new top-level folder under src/ needs a tier in .dependency-cruiser.cjs and docs/ARCHITECTURE.md.",
  severity: "error",
  from: {
    path: "^src/",
    pathNot: tiers.flat().map(folder),
  },
  to: {},
};

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module may reach itself through its imports.",
      severity: "error",
      from: { pathNot: testCode },
      to: { circular: true, pathNot: testCode },
    },
    ...upward,
    ...betweenChecks,
    unplaced,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^dist/|node_modules)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json", ".mjs"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
