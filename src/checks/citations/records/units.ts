import { Decimal } from "decimal.js";

/** Ether units a claim may state an amount in, as a power of ten of wei. */
const weiExponent: Readonly<Record<string, number>> = { wei: 0, gwei: 9, eth: 18, ether: 18 };

/** An amount written in a claim ("5 ETH", "1,200 gwei") converted to wei, exactly. */
export const toWei = (amount: string, unit: string): Decimal | undefined => {
  const exponent = weiExponent[unit.toLowerCase()];
  if (exponent === undefined) return undefined;
  const digits = amount.replaceAll(",", "");
  if (!/^\d{1,60}(?:\.\d{1,40})?$/.test(digits)) return undefined;
  return new Decimal(digits).times(new Decimal(10).pow(exponent));
};

/**
 * Whether a claimed amount matches the recorded one within a relative tolerance (0.01 = 1%). A recorded
 * zero matches only a claimed zero.
 */
export const amountsMatch = (claimed: Decimal, recorded: Decimal, tolerance: number): boolean => {
  if (recorded.isZero()) return claimed.isZero();
  return claimed.minus(recorded).abs().dividedBy(recorded.abs()).lessThanOrEqualTo(tolerance);
};

/** Wei as a short human amount: "1.53 ETH", "50 gwei", "14 wei". */
export const describeWei = (wei: Decimal): string => {
  if (wei.greaterThanOrEqualTo("1e15"))
    return `${wei.dividedBy("1e18").toSignificantDigits(6).toFixed()} ETH`;
  if (wei.greaterThanOrEqualTo("1e6")) return `${wei.dividedBy("1e9").toSignificantDigits(6).toFixed()} gwei`;
  return `${wei.toFixed()} wei`;
};
