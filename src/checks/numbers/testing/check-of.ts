import { validateNumbers } from "../validate/validate-numbers.js";

/** The check of the first number of `text`, validated against one evidence source (given whole or as lines). */
export const checkOf = (text: string, evidence: string | readonly string[]) =>
  validateNumbers({
    text,
    evidence: [
      { index: 0, origin: "source", text: typeof evidence === "string" ? evidence : evidence.join("\n") },
    ],
  }).numbers[0];
