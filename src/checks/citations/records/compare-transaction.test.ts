import { describe, expect, it } from "vitest";
import { extractCitations } from "../extract/extract.js";
import { addressRole, readClaimAttributes } from "./claim-attributes.js";
import { compareWithTransaction, defaultComparisonOptions } from "./compare-transaction.js";
import { toWei } from "./units.js";

const sender = `0x${"a1".repeat(20)}`;
const recipient = `0x${"b2".repeat(20)}`;
const hash = `0x${"c3".repeat(32)}`;
const record = {
  hash,
  block_number: "483920",
  block_timestamp: "1446561880",
  from_address: sender,
  to_address: recipient,
  value: "5000000000000000000",
};

const differences = (text: string, tolerance = 0.01) => {
  const citations = extractCitations(text).citations;
  const attributes = readClaimAttributes(text, { start: 0, end: text.length }, citations);
  return compareWithTransaction(attributes, record, [], {
    ...defaultComparisonOptions,
    amountTolerance: tolerance,
  }).differences.map((difference) => difference.attribute);
};

describe("compareWithTransaction", () => {
  it.each([
    [`[ADDR:${sender}] sent 5 ETH to [ADDR:${recipient}] in [TX:${hash}].`, []],
    [`[ADDR:${sender}] sent 5000000000 gwei to [ADDR:${recipient}] in [TX:${hash}].`, []],
    [`[ADDR:${sender}] sent 5.04 ETH in [TX:${hash}].`, []],
    [`[ADDR:${sender}] sent 5.06 ETH in [TX:${hash}].`, ["value"]],
    [`[ADDR:${recipient}] sent 5 ETH to [ADDR:${sender}] in [TX:${hash}].`, ["sender", "recipient"]],
    [`[ADDR:${recipient}] received 5 ETH from [ADDR:${sender}] in [TX:${hash}].`, []],
    [`In [TX:${hash}] the sender was [ADDR:${recipient}].`, ["sender"]],
    [`In [TX:${hash}] the recipient was [ADDR:${sender}].`, ["recipient"]],
    [`[TX:${hash}] at [BLOCK:483921].`, ["block"]],
    [`[TX:${hash}] on [TS:2015-11-03T14:44:40Z].`, []],
    [`[TX:${hash}] on [TS:2015-11-03T14:44:41Z].`, ["timestamp"]],
    [`[TX:${hash}] on [TS:2015-11-03].`, []],
    [`[TX:${hash}] on [TS:2015-11-04].`, ["timestamp"]],
  ])("%s", (text, expected) => {
    expect(differences(text)).toEqual(expected);
  });

  it("honours a configured tolerance", () => {
    expect(differences(`[ADDR:${sender}] sent 5.2 ETH in [TX:${hash}].`, 0.05)).toEqual([]);
  });

  it("reads the amount next to the citations, with its span", () => {
    const text = `At [TS:2015-11-03T14:44:40Z] [ADDR:${sender}] sent 5 ETH.`;
    const attributes = readClaimAttributes(
      text,
      { start: 0, end: text.length },
      extractCitations(text).citations,
    );
    const amount = attributes.etherAmount;
    expect(amount && text.slice(amount.span.start, amount.span.end)).toBe("5 ETH");
  });
});

describe("units and roles", () => {
  it.each([
    ["5", "ETH", "5000000000000000000"],
    ["1,200", "gwei", "1200000000000"],
    ["0.5", "ether", "500000000000000000"],
    ["14", "wei", "14"],
  ])("%s %s is %s wei", (amount, unit, wei) => {
    expect(toWei(amount, unit)?.toFixed()).toBe(wei);
  });

  it.each([
    ["from [ADDR:x]", "sender"],
    ["to [ADDR:x]", "recipient"],
    ["[ADDR:x] sent", "sender"],
    ["[ADDR:x] received", "recipient"],
    ["tokens of [ADDR:x]", "token"],
    ["the sender was [ADDR:x]", "sender"],
    ["sender: [ADDR:x]", "sender"],
    ["whose recipient is [ADDR:x]", "recipient"],
    ["receiver: [ADDR:x]", "recipient"],
    ["about [ADDR:x] today", undefined],
  ])("%s is a %s", (text, role) => {
    const start = text.indexOf("[ADDR:x]");
    expect(addressRole(text, { start, end: start + 8 })).toBe(role);
  });
});
