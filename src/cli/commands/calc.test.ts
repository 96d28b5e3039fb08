import { describe, expect, it } from "vitest";
import { capturingIO } from "../testing.js";
import { calcCommand } from "./calc.js";

describe("veracity calc", () => {
  it.each([
    [["(0.50 - 0.45) / 0.45 * 100"], 0, "11.11111111111111111111111111111111111111\n"],
    [["--json", "20893 + 76378"], 0, '{"expression":"20893 + 76378","result":"97271"}\n'],
    [["0.1 + 0.2"], 0, "0.3\n"],
  ])("%j", async (argv, code, stdout) => {
    const { io, out } = capturingIO("/");
    expect(await calcCommand.run(argv, io)).toBe(code);
    expect(out.join("")).toBe(stdout);
  });

  it("reads the expression from standard input with -", async () => {
    const { io, out } = capturingIO("/", { stdin: "2 ^ 10\n" });
    expect(await calcCommand.run(["-"], io)).toBe(0);
    expect(out.join("")).toBe("1024\n");
  });

  it.each([[["1 / 0"]], [["process.exit(1)"]], [[]], [["1", "2"]], [["--bogus", "1"]]])(
    "exits 2 on %j",
    async (argv) => {
      const { io, err } = capturingIO("/");
      expect(await calcCommand.run(argv, io)).toBe(2);
      expect(err.join("")).not.toBe("");
    },
  );
});
