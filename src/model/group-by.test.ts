import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupBy } from "./group-by.js";

describe("groupBy", () => {
  it("puts every item in its key's group, groups in first-seen order, items in order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 80 }), (items) => {
        const groups = groupBy(items, (item) => item % 5);
        expect([...groups.keys()]).toEqual([...new Set(items.map((item) => item % 5))]);
        for (const [key, group] of groups) expect(group).toEqual(items.filter((item) => item % 5 === key));
      }),
    );
  });
});
