import { createRequire } from "node:module";

type ChecksumAddress = (address: `0x${string}`) => string;
let checksumAddress: ChecksumAddress | undefined;

/**
 * viem's EIP-55 checksum, loaded at the first mixed-case address. Extraction is synchronous, so the module is
 * required (viem ships a CommonJS build) rather than imported: a program that never meets such an address never
 * loads viem and its hashing code.
 */
const eip55 = (address: `0x${string}`): string => {
  checksumAddress ??= (createRequire(import.meta.url)("viem") as { checksumAddress: ChecksumAddress })
    .checksumAddress;
  return checksumAddress(address);
};

const hasUpper = /[A-F]/;
const hasLower = /[a-f]/;

/** EIP-55: a mixed-case address must carry the right checksum; all-lower or all-upper carries none. */
export const addressChecksumProblem = (address: string): string | undefined => {
  const hex = address.slice(2);
  if (!(hasUpper.test(hex) && hasLower.test(hex))) return undefined;
  const expected = eip55(`0x${hex.toLowerCase()}`);
  return expected === address ? undefined : "mixed-case address with an invalid EIP-55 checksum";
};

const isoTimestamp = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A `[TS:...]` value must be an ISO-8601 date or date-time that exists on the calendar. */
export const timestampProblem = (value: string): string | undefined => {
  if (!isoTimestamp.test(value)) return "not an ISO-8601 timestamp";
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return "not a valid date";
  const [year, month, day] = value.slice(0, 10).split("-").map(Number);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() + 1 !== month || date.getUTCDate() !== day) {
    if (value.length === 10 || value.endsWith("Z")) return "not a valid date";
  }
  return undefined;
};

const commitKeywordBefore = /\b(?:commit|commits|sha|revision|rev)[\s:]{1,3}$/i;
const keywordWindow = 14;

/**
 * A bare hex run counts as a commit when it mixes letters and digits, or, whatever its characters, when a
 * commit keyword stands right before it ("commit 1403083", "sha deadbee"): git abbreviates to all digits
 * about one time in 27 at seven characters. Looks back a fixed window, so the scan stays linear.
 */
export const looksLikeCommit = (value: string, text = "", start = 0): boolean =>
  (/[a-f]/.test(value) && /[0-9]/.test(value)) ||
  commitKeywordBefore.test(text.slice(Math.max(0, start - keywordWindow), start));

const trailingPunctuation = new Set([".", ",", ";", ":", "!", "?", ")", "]", "'", '"']);

/** URLs end before trailing punctuation of the sentence around them (a loop: no regex backtracking). */
export const trimUrl = (url: string): string => {
  let end = url.length;
  while (end > 0 && trailingPunctuation.has(url[end - 1] ?? "")) end -= 1;
  return url.slice(0, end);
};

/** A `0x` value must have exactly the hex digits of its kind: 64 for a transaction hash, 40 for an address. */
export const hexLengthProblem = (value: string, digits: number, what: string): string | undefined => {
  if (!/^0x[0-9a-fA-F]*$/.test(value)) return `not ${what}: expected 0x and ${digits} hex digits`;
  const length = value.length - 2;
  return length === digits ? undefined : `not ${what}: ${length} hex digits where ${digits} are needed`;
};
