import type { ClaimVerdict } from "../model/claim.js";

export const verdictSymbol: Record<ClaimVerdict, string> = {
  supported: "✓",
  unsupported: "✗",
  contradicted: "!",
  unverifiable: "?",
};

/** ANSI colours for terminals. */
export const verdictColour: Record<ClaimVerdict, string> = {
  supported: "\u001b[32m",
  unsupported: "\u001b[31m",
  contradicted: "\u001b[35m",
  unverifiable: "\u001b[33m",
};

export const resetColour = "\u001b[0m";
