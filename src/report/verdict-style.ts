import type { ClaimVerdict } from "../model/claim.js";
import type { AnswerVerdict } from "../model/result.js";

/** How an answer's verdict is written in reports. */
export const answerVerdictLabel: Record<AnswerVerdict, string> = {
  pass: "PASSED",
  warn: "WARNING",
  fail: "FAILED",
  unverified: "UNVERIFIED",
};

export const answerVerdictColour: Record<AnswerVerdict, string> = {
  pass: "\u001b[32m",
  warn: "\u001b[33m",
  fail: "\u001b[31m",
  unverified: "\u001b[33m",
};

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
