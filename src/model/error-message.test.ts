import { describe, expect, it } from "vitest";
import { errorMessage } from "./error-message.js";
import { VerificationError } from "./errors.js";

describe("errorMessage", () => {
  it("gives an Error's message, the library's typed errors included", () => {
    expect(errorMessage(new RangeError("out of range"))).toBe("out of range");
    expect(errorMessage(new VerificationError({ message: "the worker stopped" }))).toBe("the worker stopped");
  });

  it("writes anything else thrown as String does", () => {
    expect(errorMessage("plain text")).toBe("plain text");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(null)).toBe("null");
    expect(errorMessage(undefined)).toBe("undefined");
    expect(errorMessage({ toString: () => "an object" })).toBe("an object");
  });
});
