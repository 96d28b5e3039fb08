import { describe, expect, it } from "vitest";
import { assessHeuristicRisk } from "./risk-heuristics.js";

describe("assessHeuristicRisk", () => {
  it.each([
    ["Hello, how are you?", "low"],
    ["What dosage of aspirin should I take?", "critical"],
    // A bare stem between word boundaries, `\b(diagnos|medic)\b`, would miss these: more letters follow it.
    [
      "The diagnosis was confirmed by two independent labs last week, according to the hospital's report.",
      "critical",
    ],
    [
      "Take this medication twice a day with food and plenty of water, as the label on the bottle says.",
      "critical",
    ],
    [
      "Should I invest my savings in index funds or pay down the mortgage on my house first this year?",
      "critical",
    ],
    ["Should I take aspirin for my headache?", "critical"],
    ["Is ibuprofen safe with alcohol?", "critical"],
    ["The usual adult amount is 500 mg every six hours for a short course at the most.", "critical"],
    ["Which stocks should I buy?", "critical"],
    // "investigation" is not investing; "in stock" is not the stock market.
    ["The police investigation closed last spring after the witnesses were heard.", "low"],
    ["The blue model is back in stock.", "low"],
    ["Run sudo rm -rf / to clean up", "high"],
    [
      "Store the API key in the vault and rotate the credentials every 90 days for the production cluster.",
      "high",
    ],
    // "executive" is not the exec system call.
    [
      "The chief executive said the new picking arm shipped to 14 customers during the third quarter of 2025.",
      undefined,
    ],
  ] as const)("%j -> %s", (text, expected) => {
    expect(assessHeuristicRisk(text)).toBe(expected);
  });
});
