import { describe, expect, it } from "vitest";
import { commands } from "./index.js";

describe("the command list", () => {
  it.each(commands.map((entry) => [entry.name, entry] as const))(
    "%s loads the command it names",
    async (name, entry) => {
      const command = await entry.load();
      expect(command.name).toBe(name);
      expect(command.summary).toBe(entry.summary);
    },
  );
});
