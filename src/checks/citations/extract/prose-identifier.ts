/** What a `0x` run written in prose is: its kind, its value, and what is wrong with it. */
export interface ProseIdentifier {
  readonly kind: "transaction" | "address";
  readonly value: string;
  readonly problem?: string;
}

const ellipsis = /(?:\u2026|\.{3})$/;
const transactionWord = /\b(?:transaction|tx|txn|hash|txid)\s?(?:hash\s?)?(?:id\s?)?:?\s?$/i;
const addressWord = /\b(?:address|addr|wallet|account|contract|token|eoa)\s?:?\s?$/i;
/** Shorter runs with no ellipsis and no identifier word before them are other hex values (selectors, `0x0`). */
const minimumBareDigits = 20;

/**
 * Reads a `0x` run found in prose. 64 digits is a transaction hash and 40 an address, both looked up like
 * bracketed citations. A run cut short with an ellipsis, a run after "transaction" or "wallet", or a long run
 * of any other length is a malformed identifier: it names something on chain that cannot exist.
 */
export const readProseIdentifier = (raw: string, before: string): ProseIdentifier | undefined => {
  const truncated = ellipsis.test(raw);
  const hex = raw.replace(ellipsis, "").toLowerCase();
  const digits = hex.length - 2;
  const named = transactionWord.test(before)
    ? "transaction"
    : addressWord.test(before)
      ? "address"
      : undefined;
  if (!truncated) {
    if (digits === 64 && named !== "address") return { kind: "transaction", value: hex };
    if (digits === 40 && named !== "transaction") return { kind: "address", value: hex };
    if (named === undefined && digits < minimumBareDigits) return undefined;
  }
  const kind = named ?? (digits > 40 ? "transaction" : "address");
  const expected = kind === "transaction" ? 64 : 40;
  return {
    kind,
    value: hex,
    problem: truncated
      ? `truncated ${kind === "transaction" ? "transaction hash" : "address"}: ${digits} hex digits and an ellipsis where ${expected} are needed`
      : `not ${kind === "transaction" ? "a transaction hash" : "an address"}: ${digits} hex digits where ${expected} are needed`,
  };
};
