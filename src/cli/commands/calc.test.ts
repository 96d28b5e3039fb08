import { describe, expect, it } from "vitest";
import type { CliIO } from "../command.js";
import { calcCommand } from "./calc.js";

const io = (stdin = "") => {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIO = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    isTTY: false,
    cwd: "/",
    env: {},
  };
  return { value, out, err };
};

describe("veracity calc", () => {
  it.each([
    [["(0.50 - 0.45) / 0.45 * 100"], 0, "11.11111111111111111111111111111111111111\n"],
    [["--json", "20893 + 76378"], 0, '{"expression":"20893 + 76378","result":"97271"}\n'],
    [["0.1 + 0.2"], 0, "0.3\n"],
  ])("%j", async (argv, code, stdout) => {
    const { value, out } = io();
    expect(await calcCommand.run(argv, value)).toBe(code);
    expect(out.join("")).toBe(stdout);
  });

  it("reads the expression from standard input with -", async () => {
    const { value, out } = io("2 ^ 10\n");
    expect(await calcCommand.run(["-"], value)).toBe(0);
    expect(out.join("")).toBe("1024\n");
  });

  it.each([[["1 / 0"]], [["process.exit(1)"]], [[]], [["1", "2"]], [["--bogus", "1"]]])(
    "exits 2 on %j",
    async (argv) => {
      const { value, err } = io();
      expect(await calcCommand.run(argv, value)).toBe(2);
      expect(err.join("")).not.toBe("");
    },
  );
});
