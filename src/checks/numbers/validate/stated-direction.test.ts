import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../../model/layer.js";
import { statedDirection } from "./stated-direction.js";
import { validateNumbers } from "./validate-numbers.js";

/** The direction stated for `figure`, the first occurrence of it in `text`. */
const directionOf = (text: string, figure: string) => {
  const start = text.indexOf(figure);
  return statedDirection(text, start, start + figure.length);
};

describe("statedDirection", () => {
  it.each([
    ["Bookings grew 12% in the year.", "12%", "up"],
    ["Bookings were up 12% on the year.", "12%", "up"],
    ["Bookings were $3 million higher than a year before.", "$3 million", "up"],
    ["Bookings fell 12% in the year.", "12%", "down"],
    ["Bookings were down by $3 million.", "$3 million", "down"],
    ["Bookings were $3 million lower than a year before.", "$3 million", "down"],
    ["Bookings showed a decrease of 12%.", "12%", "down"],
    // Each figure takes the direction of its own statement, or the nearest word.
    ["Bookings rose 12% while returns fell 4%.", "12%", "up"],
    ["Bookings rose 12% while returns fell 4%.", "4%", "down"],
    ["Bookings rose 12% and returns fell 4%.", "4%", "down"],
    ["Bookings rose 12% and returns fell 4%.", "12%", "up"],
  ])("%s (%s) -> %s", (text, figure, direction) => {
    expect(directionOf(text, figure)).toBe(direction);
  });

  it.each([
    ["Bookings were 12% of revenue.", "12%"],
    // Words of either sign name an item, not a direction.
    ["The increase / (decrease) in bookings was $3 million.", "$3 million"],
    ["(Increase) decrease in receivables was $3 million.", "$3 million"],
    ["The increase/decrease in bookings was $3 million.", "$3 million"],
    ["Operating income (loss) was $3 million.", "$3 million"],
    // A change carries its own sign; a level is where the figure moved to or from.
    ["The change in bookings, a decrease, was $3 million.", "$3 million"],
    ["Bookings fell to $3 million.", "$3 million"],
    ["Bookings fell from $5 million to $3 million.", "$5 million"],
    ["The amount falling due within one year was $3 million.", "$3 million"],
    ["The lower of cost or market was $3 million.", "$3 million"],
  ])("%s (%s) -> no direction", (text, figure) => {
    expect(directionOf(text, figure)).toBeUndefined();
  });
});

// Invented figures: licences rose, kiosks fell, the renewal rate rose by 2.5 points, the net loss narrowed.
const statement = [
  "Table (in thousands):",
  " | 2024 | 2023",
  "Licence revenue | 6,300 | 5,600",
  "Kiosk revenue | 1,020 | 1,200",
  "Renewal rate | 88.5% | 86.0%",
  "Net loss | (250) | (400)",
].join("\n");

const evidence: EvidenceSource[] = [{ index: 0, origin: "source", text: statement }];
const checksOf = (text: string) => validateNumbers({ text, evidence }).numbers;
const statusOf = (text: string) => checksOf(text).map((check) => check.status);

describe("validateNumbers: the direction a claim states for a change", () => {
  it.each([
    // Licence revenue rose by 700, or 12.5%.
    ["Licence revenue fell 12.5% from 2023 to 2024.", ["suspicious"]],
    ["Licence revenue declined by $700 thousand in 2024.", ["suspicious"]],
    ["Licence revenue was $700 thousand lower in 2024 than in 2023.", ["suspicious"]],
    ["The renewal rate dropped 2.5 percentage points in 2024.", ["suspicious"]],
    ["Kiosk revenue rose 15% in 2024 while licence revenue fell 12.5%.", ["suspicious", "suspicious"]],
  ])("%s -> %j", (text, statuses) => {
    expect(statusOf(text)).toEqual(statuses);
  });

  it.each([
    ["Licence revenue grew 12.5% from 2023 to 2024.", ["derived"]],
    ["Licence revenue increased by $700 thousand in 2024.", ["derived"]],
    ["The renewal rate rose 2.5 percentage points in 2024.", ["derived"]],
    // Kiosk revenue fell by 180, or 15%: a magnitude with a word of decline, or a signed figure.
    ["Kiosk revenue fell 15% in 2024.", ["derived"]],
    ["Kiosk revenue decreased by $180 thousand in 2024.", ["derived"]],
    ["Kiosk revenue fell by -$180 thousand in 2024.", ["derived"]],
    ["Kiosk revenue showed a decrease of $(180) thousand in 2024.", ["derived"]],
    // Two statements, each with its own direction.
    ["Licence revenue rose 12.5% in 2024 while kiosk revenue fell 15%.", ["derived", "derived"]],
    // Between two negatives the words may describe the magnitude: (-250) - (-400) = 150 is a loss that fell.
    ["The net loss fell by $150 thousand in 2024.", ["derived"]],
    ["The net loss fell 37.5% in 2024.", ["derived"]],
    // No direction stated: the sign of the figure is all there is.
    ["The change in licence revenue from 2023 to 2024 was $700 thousand.", ["derived"]],
    ["The increase / (decrease) in licence revenue from 2023 to 2024 was $700 thousand.", ["derived"]],
  ])("%s -> %j", (text, statuses) => {
    expect(statusOf(text)).toEqual(statuses);
  });

  it("says which way the sources moved, with the signed change and its formula", () => {
    expect(checksOf("Licence revenue declined by $700 thousand in 2024.")[0]).toMatchObject({
      text: "$700 thousand",
      reason: "direction",
      expected: "+700 thousand",
      formula: "6300 - 5600 = 700",
    });
    expect(checksOf("Licence revenue fell 12.5% from 2023 to 2024.")[0]).toMatchObject({
      reason: "direction",
      expected: "+12.5%",
    });
  });

  it("keeps a sign error for a rise stated where the sources show a fall", () => {
    expect(checksOf("Kiosk revenue rose 15% in 2024.")[0]).toMatchObject({
      status: "suspicious",
      reason: "sign",
    });
  });

  it("spans the whole written figure of a derived change", () => {
    const text = "Licence revenue grew by $700 thousand, or 12.5%, in 2024.";
    const checks = checksOf(text);
    expect(checks.map((check) => [check.status, text.slice(check.span.start, check.span.end)])).toEqual([
      ["derived", "$700 thousand"],
      ["derived", "12.5%"],
    ]);
  });
});
