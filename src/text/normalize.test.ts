import { describe, expect, it } from "vitest";
import { normalizeText } from "./normalize.js";

describe("normalizeText", () => {
  it("folds every kind of horizontal white space to one space and keeps line breaks", () => {
    for (const space of ["  ", "\t", "\u00A0", "\u2002", "\u2009", "\u202F", "\u3000", " \t\u00A0 "])
      expect(normalizeText(`I${space}guess so`)).toBe("I guess so");
    expect(normalizeText("one\r\ntwo\u2028three")).toBe("one\ntwo\nthree");
  });

  it("composes to NFC and drops invisible characters that split words", () => {
    expect(normalizeText("cafe\u0301")).toBe("caf\u00E9");
    expect(normalizeText("prob\u200Bably may\u00ADbe")).toBe("probably maybe");
  });
});
