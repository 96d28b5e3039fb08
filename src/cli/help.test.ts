import { describe, expect, it } from "vitest";
import { allCommands, runCli } from "./run-cli.js";
import { capturingIO } from "./testing.js";

/** Every invocation a command's usage shows: `veracity memory ingest ...` gives ["memory", "ingest"]. */
const invocations = async (): Promise<string[][]> => {
  const found: string[][] = [];
  for (const entry of allCommands()) {
    const command = await entry.load();
    found.push([entry.name]);
    for (const line of command.usage.split("\n")) {
      const words = line.trim().split(/\s+/);
      if (words[0] !== "veracity" || words[1] !== entry.name) continue;
      const subcommands = words
        .slice(2)
        .filter((_word, index, all) => all.slice(0, index + 1).every((w) => /^[a-z]+$/.test(w)));
      if (subcommands.length > 0) found.push([entry.name, ...subcommands]);
    }
  }
  return found;
};

describe("--help", () => {
  it.each(["--help", "-h", "help"])("veracity %s lists every command and exits 0", async (flag) => {
    const { io, out } = capturingIO(process.cwd());
    expect(await runCli([flag], io)).toBe(0);
    for (const entry of allCommands()) expect(out.join("")).toContain(entry.name);
  });

  it("answers on every command and subcommand with its usage and examples, exit 0", async () => {
    const all = await invocations();
    expect(all.map((words) => words.join(" "))).toEqual(
      expect.arrayContaining([
        "memory ingest",
        "evidence import ethereum",
        "serve keys create",
        "audit verify",
      ]),
    );
    for (const words of all)
      for (const flag of ["--help", "-h"]) {
        const { io, out, err } = capturingIO(process.cwd());
        const code = await runCli([...words, flag], io);
        expect(code, `${words.join(" ")} ${flag}: ${err.join("")}`).toBe(0);
        expect(out.join(""), words.join(" ")).toMatch(/^veracity /);
        expect(out.join(""), words.join(" ")).toMatch(/\nExamples:\n {2}veracity /);
      }
  });

  it("is found after other arguments, but not after --", async () => {
    const asked = capturingIO(process.cwd());
    expect(await runCli(["check", "answer.md", "--source", "x.md", "--help"], asked.io)).toBe(0);
    expect(asked.out.join("")).toContain("veracity check");
    const literal = capturingIO(process.cwd());
    expect(await runCli(["check", "--", "--help"], literal.io)).toBe(2);
    expect(literal.out.join("")).not.toContain("Examples:");
  });

  it("shows examples that name their own command", async () => {
    for (const entry of allCommands()) {
      const command = await entry.load();
      expect(command.examples?.length, entry.name).toBeGreaterThan(0);
      for (const example of command.examples ?? []) expect(example).toContain(`veracity ${entry.name}`);
    }
  });
});
