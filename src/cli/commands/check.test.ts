import { mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTestRepository } from "../../testing/git-repository.js";
import { runCliIn } from "../testing.js";

const repoRoot = resolve(import.meta.dirname, "../../..");

const runIn = (argv: string[], stdin = "", cwd = repoRoot) => runCliIn(argv, cwd, { stdin });

const example = ["check", "examples/answer.md", "--source", "examples/source.md"];

describe("veracity check", () => {
  it("reports the shipped example's unsupported claims with reasons and evidence, exit 1", async () => {
    const { code, stdout } = await runIn(example);
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ UNSUPPORTED .*Marcus Lindqvist/);
    expect(stdout).toMatch(/reason: "Marcus Lindqvist" is not mentioned in the sources/);
    expect(stdout).toMatch(/evidence \(examples\/source\.md \d+-\d+\): "Chief executive Dana Okafor/);
    expect(stdout).toMatch(/FAILED/);
  });

  it("exits 0 for a faithful answer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-check-"));
    await writeFile(
      join(dir, "answer.txt"),
      "Northwind opened a second assembly plant in Tampere, Finland, in August.",
    );
    const { code, stdout } = await runIn([
      "check",
      join(dir, "answer.txt"),
      "--source",
      "examples/source.md",
      "--risk",
      "low",
    ]);
    expect(stdout).toMatch(/PASSED/);
    expect(code).toBe(0);
  });

  it("reads a directory of sources without the answer file in it and without binary files", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-check-dir-"));
    const answer = "The tower on the hill is 412 metres tall.";
    await writeFile(join(dir, "answer.md"), answer);
    await writeFile(join(dir, "source.md"), "The tower on the hill is 330 metres tall.");
    await writeFile(
      join(dir, "image.txt"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x34, 0x31, 0x32]),
    );
    const { code, stdout } = await runIn(
      ["check", "answer.md", "--source", ".", "--format", "json"],
      "",
      dir,
    );
    // Had the answer counted as its own source, its 412 would be found and the check would pass.
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result.passed).toBe(false);
    expect(result.claims[0].evidence.every((e: { text: string }) => !e.text.includes("412"))).toBe(true);
  });

  it("prints the VerificationResult as JSON", async () => {
    const { code, stdout } = await runIn([...example, "--format", "json"]);
    expect(code).toBe(1);
    const result = JSON.parse(stdout);
    expect(result.passed).toBe(false);
    expect(result.claims.some((claim: { verdict: string }) => claim.verdict === "unsupported")).toBe(true);
    expect(result.layersRun[0].layer).toBe("grounding");
  });

  it("writes a self-contained HTML report with highlighted claims", async () => {
    const { stdout } = await runIn([...example, "--format", "html"]);
    expect(stdout).toMatch(/^<!doctype html>/);
    expect(stdout).toMatch(/<mark class="claim unsupported"/);
    expect(stdout).not.toMatch(/<script|src="http/);
  });

  it("reads the answer from standard input", async () => {
    const { code, stdout } = await runIn(
      ["check", "-", "--source", "examples/source.md", "--format", "json"],
      "Gross margin improved to 41.3%.",
    );
    expect(JSON.parse(stdout).claims).toHaveLength(1);
    expect([0, 1]).toContain(code);
  });

  it("takes a directory of sources and JSON answers", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-check-"));
    await writeFile(join(dir, "a.md"), "The plant is in Tampere.");
    await writeFile(join(dir, "b.txt"), "It opened in August.");
    await writeFile(
      join(dir, "answer.json"),
      JSON.stringify({ answer: "The plant in Tampere opened in August." }),
    );
    const { code, stdout } = await runIn([
      "check",
      join(dir, "answer.json"),
      "--source",
      dir,
      "--format",
      "json",
    ]);
    expect(JSON.parse(stdout).claims[0].verdict).toBe("supported");
    expect(code).toBe(0);
  });

  it("--fail-on contradicted ignores unsupported claims but not contradictions", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-check-"));
    await writeFile(
      join(dir, "unsupported.txt"),
      "Chief executive Marcus Lindqvist said the Atlas arm shipped to 14 customers.",
    );
    await writeFile(join(dir, "contradicted.txt"), "The consumer division's sales rose to $16.7 million.");
    const base = ["--source", "examples/source.md", "--fail-on", "contradicted"];
    expect((await runIn(["check", join(dir, "unsupported.txt"), ...base])).code).toBe(0);
    expect((await runIn(["check", join(dir, "contradicted.txt"), ...base])).code).toBe(1);
  });

  it.each([
    [["check"], /missing the answer file/],
    [["check", "nope.md", "--source", "examples/source.md"], /cannot read nope\.md/],
    [
      ["check", "examples/answer.md", "--source", "examples/source.md", "--format", "pdf"],
      /--format must be one of/,
    ],
    [["check", "examples/answer.md", "--source", "examples/source.md", "--bogus"], /Unknown option/],
    [
      ["check", "examples/answer.md", "--source", "examples/source.md", "--max-input-bytes", "10"],
      /over the input limit of 10 bytes/,
    ],
    [
      ["check", "package.json", "--source", "examples/source.md"],
      /package\.json: expected a JSON string or an object/,
    ],
    [["check", "-", "--source", "-"], /standard input \(-\) can be used only once/],
    [["frobnicate"], /unknown command "frobnicate"/],
  ])("exits 2 with a clear message for %j", async (argv, message) => {
    const { code, stderr } = await runIn(argv as string[]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("--repo checks the commits and ADRs an answer cites against a real repository", async () => {
    const { directory: repo, commit } = await makeTestRepository(
      { "docs/adr/ADR-003-event-store.md": "# ADR-003\nWe use PostgreSQL for the event store.\n" },
      "Record the event store decision",
    );
    const answer = join(repo, "answer.md");
    const check = (text: string) =>
      writeFile(answer, text).then(() =>
        runIn(["check", answer, "--repo", repo, "--layers", "citations", "--format", "json"]),
      );

    const real = await check(
      `We use PostgreSQL for the event store (ADR-003), recorded in commit ${commit.slice(0, 10)}.`,
    );
    expect(real.code).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({
      passed: true,
      layersRun: [{ layer: "citations", passed: true }],
    });

    const made = await check(
      "We use MongoDB for the event store (ADR-042), recorded in commit 0a1b2c3d4e5f.",
    );
    expect(made.code).toBe(1);
    const result = JSON.parse(made.stdout);
    expect(result.passed).toBe(false);
    expect(
      result.claims[0].issues.map((issue: { code: string; message: string }) => [issue.code, issue.message]),
    ).toEqual([
      ["CITATION_NOT_FOUND", "ADR-042: no such decision record"],
      ["CITATION_NOT_FOUND", "0a1b2c3d4e5f: no such commit in the repository"],
    ]);
  });

  it("prints help and the version", async () => {
    expect((await runIn(["--help"])).stdout).toMatch(/check/);
    expect((await runIn(["check", "--help"])).stdout).toMatch(
      /Exit codes: 0 passed or warned, 1 findings, 2 usage or input error, 3 unverified/,
    );
  });
});

describe("veracity check on hostile input", () => {
  it("refuses an evidence store that does not exist instead of creating an empty one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-no-evidence-"));
    const missing = join(dir, "no-such-store");
    const { code, stderr } = await runIn([...example, "--evidence", missing]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/evidence store .*no-such-store does not exist/);
    await expect(stat(missing)).rejects.toThrow(/ENOENT/);
  });

  it("checks 500 KB of '#1 ' against an answer of the same, in under 5 s", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-hashes-"));
    await writeFile(join(dir, "answer.md"), "#1 ".repeat(33_333));
    await writeFile(join(dir, "source.md"), "#1 ".repeat(166_667));
    const started = Date.now();
    const { code } = await runIn(
      ["check", "answer.md", "--source", "source.md", "--format", "json"],
      "",
      dir,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect([0, 1]).toContain(code);
  }, 30_000);

  it("refuses an answer with a NUL or past the text limit, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-bad-answer-"));
    await writeFile(join(dir, "nul.md"), "It is 5\u0000 m.");
    await writeFile(join(dir, "long.md"), "a".repeat(100_001));
    await writeFile(join(dir, "source.md"), "It is 5 m.");
    for (const [file, reason] of [
      ["nul.md", /nul\.md contains a NUL/],
      ["long.md", /long\.md\) has 100001 characters; the limit is 100000/],
    ] as const) {
      const { code, stderr } = await runIn(["check", file, "--source", "source.md"], "", dir);
      expect(code).toBe(2);
      expect(stderr).toMatch(reason);
    }
  });
});
