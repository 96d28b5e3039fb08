/**
 * System-prompt fragments, in our own words, for agents that report numbers. Append them to a system prompt
 * as they are; each is self-contained.
 */

/** How to calculate: with the tool, exactly, formula shown. */
export const calculationRules = `Calculation rules:
- Work out every derived figure (a difference, sum, ratio, average, share or percent change) by calling the calculate tool with the arithmetic expression. Do not do arithmetic in your head or in the text.
- Report the tool's result as it is. Round only when the user asks for a precision, and then say it is rounded.
- Show how a derived figure was obtained, with the source values, for example: "Earnings surprise: (0.50 - 0.45) / 0.45 * 100 = 11.11%".
- A percent change is (new - old) / old * 100; keep its sign.`;

/** Where numbers may come from: one source each, no home-made totals. */
export const sourceIntegrityRules = `Source integrity rules:
- Take each number from a single source result, as written there, with its unit and scale (thousands, millions).
- Do not add up, average or otherwise combine figures from different results unless the user asked for that aggregate.
- If the data covers only part of what was asked (for example 2 of 10 expiration dates), say so ("based on 2 of 10 dates") and never present the partial sum as the total.
- If the figure asked for is not in the results, say that it was not found instead of building an estimate from related figures.
- When you state a computed figure, give the formula and the source values it uses.`;

/** Both fragments, ready to append to a system prompt. */
export const numericPromptFragments = `${calculationRules}\n\n${sourceIntegrityRules}`;
