import { describe, expect, it } from "vitest";
import { type ByteBudget, bodyBudgetOf } from "./byte-budget.js";
import { type Reservation, requestSlotsOf } from "./shared-budget.js";

const released = (reservation: Reservation): (() => void) => {
  if (!reservation.held) throw new Error(`refused: ${reservation.full}`);
  return reservation.release;
};

/** Reserves `bytes` for `holder` until refused (at most 10,000 times); how many reservations were held. */
const fill = (budget: ByteBudget, bytes: number, holder: string | undefined): number => {
  let held = 0;
  while (held < 10_000 && budget.reserve(bytes, holder).held) held += 1;
  return held;
};

describe("bodyBudgetOf", () => {
  it("holds one key to its share while other keys still reserve up to the total", () => {
    const budget = bodyBudgetOf({ maxBodyBytesInFlight: 1_000, maxBodyBytesInFlightPerKey: 300 }, 100);
    expect(fill(budget, 100, "mallory")).toBe(3);
    expect(budget.reserve(100, "mallory")).toEqual({ held: false, full: "holder" });
    expect(fill(budget, 100, "alice")).toBe(3);
    expect(fill(budget, 100, "bob")).toBe(3);
    // 900 reserved: the last 100 fit for a fourth key, then the total is full for everyone.
    expect(budget.reserve(100, "carol").held).toBe(true);
    expect(budget.reserved()).toBe(1_000);
    expect(budget.reserve(1, "dave")).toEqual({ held: false, full: "total" });
    expect(budget.reserve(1, undefined)).toEqual({ held: false, full: "total" });
  });

  it("gives back a reservation's bytes to the total and to its key's share, once", () => {
    const budget = bodyBudgetOf({ maxBodyBytesInFlight: 1_000, maxBodyBytesInFlightPerKey: 200 }, 100);
    const first = released(budget.reserve(100, "mallory"));
    released(budget.reserve(100, "mallory"));
    expect(budget.reserve(100, "mallory").held).toBe(false);
    first();
    first();
    expect(budget.reserved()).toBe(100);
    expect(budget.reserve(100, "mallory").held).toBe(true);
    expect(budget.reserve(100, "mallory").held).toBe(false);
  });

  it("holds a request without a key to the total only", () => {
    const budget = bodyBudgetOf({ maxBodyBytesInFlight: 500, maxBodyBytesInFlightPerKey: 100 }, 100);
    expect(fill(budget, 100, undefined)).toBe(5);
  });

  it("keeps the total and a key's share at least one admitted body, and the share within the total", () => {
    const small = bodyBudgetOf({ maxBodyBytesInFlight: 10, maxBodyBytesInFlightPerKey: 10 }, 4_096);
    expect(small.limit).toBe(4_096);
    expect(small.limitPerHolder).toBe(4_096);
    expect(small.reserve(4_096, "alice").held).toBe(true);
    const wide = bodyBudgetOf({ maxBodyBytesInFlight: 8_192, maxBodyBytesInFlightPerKey: 1_000_000 }, 1_024);
    expect(wide.limitPerHolder).toBe(8_192);
  });
});

describe("requestSlotsOf", () => {
  it("holds each key to its requests in flight, with no total across keys", () => {
    const slots = requestSlotsOf(4);
    expect(fill(slots, 1, "mallory")).toBe(4);
    for (let key = 0; key < 1_000; key += 1) expect(slots.reserve(1, `key-${key}`).held).toBe(true);
    expect(slots.reserve(1, undefined).held).toBe(true);
  });
});
