import { Decimal } from "decimal.js";
import type { Span } from "../../../model/span.js";
import type { TokenTransferRecord } from "../store/records.js";
import type { ClaimAttributes } from "./claim-attributes.js";
import { amountsMatch, describeWei } from "./units.js";

export interface ComparisonOptions {
  /** Relative tolerance on amounts: 0.01 (1%) by default. */
  readonly amountTolerance: number;
  /** Allowed difference between a claimed and a recorded date-time, in seconds (0 by default). */
  readonly timestampToleranceSeconds: number;
}

export const defaultComparisonOptions: ComparisonOptions = {
  amountTolerance: 0.01,
  timestampToleranceSeconds: 0,
};

/** The fields of a transaction a claim is compared with; a record from chain may lack some. */
export interface ComparableTransaction {
  readonly hash: string;
  readonly block_number: string;
  readonly block_timestamp?: string | null;
  /** Optional because a receipt from an old node may lack sender and recipient. */
  readonly from_address?: string;
  readonly to_address?: string | null;
  readonly value?: string;
}

export type ComparedAttribute =
  | "sender"
  | "recipient"
  | "value"
  | "block"
  | "timestamp"
  | "token-transfer"
  | "address-total";

export interface AttributeDifference {
  readonly attribute: ComparedAttribute;
  readonly claimed: string;
  readonly recorded: string;
  /** Offsets into the verified text of the claimed value. */
  readonly span: Span;
}

/** An attribute the claim states but the record cannot confirm (e.g. a value missing from a chain receipt). */
export interface UncheckedAttribute {
  readonly attribute: ComparedAttribute;
  readonly reason: string;
  readonly span: Span;
}

export interface RecordComparison {
  readonly differences: readonly AttributeDifference[];
  readonly unchecked: readonly UncheckedAttribute[];
  readonly compared: readonly ComparedAttribute[];
}

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");

/** The tokens a claimed ticker may name, with their decimals (undefined when the claim says "tokens"). */
export type SymbolTokens = readonly { readonly address: string; readonly decimals: number | null }[];

/**
 * The raw amount a claim states of one token: "N tokens" is raw already, "N SYMBOL" is in whole tokens and
 * needs the token's decimals (undefined when they are unknown).
 */
export const rawAmountOf = (
  amount: Decimal,
  symbol: string | undefined,
  token: string,
  tokens: SymbolTokens | undefined,
): Decimal | undefined => {
  if (symbol === undefined) return amount;
  const decimals = tokens?.find((candidate) => candidate.address === token)?.decimals;
  return decimals === undefined || decimals === null
    ? undefined
    : amount.times(new Decimal(10).pow(decimals));
};

const compareTokenTransfer = (
  attributes: ClaimAttributes,
  transfers: readonly TokenTransferRecord[],
  tolerance: number,
  symbolTokens: SymbolTokens | undefined,
): { difference?: AttributeDifference; unchecked?: UncheckedAttribute } => {
  const amount = attributes.tokenAmount;
  if (amount === undefined) return {};
  const symbol = amount.symbol;
  if (symbol !== undefined && !symbolTokens?.some((token) => token.decimals !== null))
    return {
      unchecked: {
        attribute: "token-transfer",
        reason: `no token with the symbol ${symbol} and known decimals in the evidence store`,
        span: amount.span,
      },
    };
  const matching = transfers.filter((transfer) => {
    const raw = rawAmountOf(amount.value, symbol, transfer.token_address, symbolTokens);
    return (
      raw !== undefined &&
      (attributes.sender === undefined || transfer.from_address === attributes.sender.value) &&
      (attributes.recipient === undefined || transfer.to_address === attributes.recipient.value) &&
      (attributes.token === undefined || transfer.token_address === attributes.token.value) &&
      amountsMatch(raw, new Decimal(transfer.value), tolerance)
    );
  });
  if (matching.length > 0) return {};
  const recorded =
    transfers.length === 0
      ? "no token transfer recorded in this transaction"
      : transfers
          .slice(0, 3)
          .map((t) => `${t.value} of ${t.token_address} from ${t.from_address} to ${t.to_address}`)
          .join("; ");
  const claimed = [
    symbol === undefined ? `${amount.value.toFixed()} tokens` : `${amount.value.toFixed()} ${symbol}`,
    attributes.token ? `of ${attributes.token.value}` : "",
    attributes.sender ? `from ${attributes.sender.value}` : "",
    attributes.recipient ? `to ${attributes.recipient.value}` : "",
  ]
    .filter((part) => part.length > 0)
    .join(" ");
  return { difference: { attribute: "token-transfer", claimed, recorded, span: amount.span } };
};

/**
 * Compares what a claim states with the recorded transaction: sender, recipient and ether value (unit-aware,
 * within the tolerance), block and timestamp; for a claim about token amounts, the transaction's token
 * transfers instead of its sender, recipient and value.
 */
export const compareWithTransaction = (
  attributes: ClaimAttributes,
  record: ComparableTransaction,
  transfers: readonly TokenTransferRecord[],
  options: ComparisonOptions = defaultComparisonOptions,
  symbolTokens?: SymbolTokens,
): RecordComparison => {
  const differences: AttributeDifference[] = [];
  const unchecked: UncheckedAttribute[] = [];
  const compared: ComparedAttribute[] = [];
  const differ = (difference: AttributeDifference | undefined) => {
    if (difference) differences.push(difference);
  };

  if (attributes.tokenAmount !== undefined) {
    const token = compareTokenTransfer(attributes, transfers, options.amountTolerance, symbolTokens);
    if (token.unchecked) unchecked.push(token.unchecked);
    else compared.push("token-transfer");
    differ(token.difference);
  } else {
    if (attributes.sender && record.from_address === undefined) {
      unchecked.push({
        attribute: "sender",
        reason: "the record found has no sender",
        span: attributes.sender.span,
      });
    } else if (attributes.sender) {
      compared.push("sender");
      if (attributes.sender.value !== record.from_address)
        differ({
          attribute: "sender",
          claimed: attributes.sender.value,
          recorded: record.from_address ?? "",
          span: attributes.sender.span,
        });
    }
    if (attributes.recipient && record.to_address === undefined) {
      unchecked.push({
        attribute: "recipient",
        reason: "the record found has no recipient",
        span: attributes.recipient.span,
      });
    } else if (attributes.recipient) {
      compared.push("recipient");
      if (attributes.recipient.value !== record.to_address)
        differ({
          attribute: "recipient",
          claimed: attributes.recipient.value,
          recorded: record.to_address ?? "none (contract creation)",
          span: attributes.recipient.span,
        });
    }
    if (attributes.etherAmount) {
      if (record.value === undefined) {
        unchecked.push({
          attribute: "value",
          reason: "the record found has no value",
          span: attributes.etherAmount.span,
        });
      } else {
        compared.push("value");
        const recorded = new Decimal(record.value);
        if (!amountsMatch(attributes.etherAmount.value, recorded, options.amountTolerance))
          differ({
            attribute: "value",
            claimed: attributes.etherAmount.text,
            recorded: `${describeWei(recorded)} (${recorded.toFixed()} wei)`,
            span: attributes.etherAmount.span,
          });
      }
    }
  }
  if (attributes.block) {
    compared.push("block");
    if (attributes.block.value !== record.block_number)
      differ({
        attribute: "block",
        claimed: attributes.block.value,
        recorded: record.block_number,
        span: attributes.block.span,
      });
  }
  if (attributes.timestamp) {
    const recordedSeconds = record.block_timestamp == null ? undefined : Number(record.block_timestamp);
    if (recordedSeconds === undefined) {
      unchecked.push({
        attribute: "timestamp",
        reason: "the record found has no timestamp",
        span: attributes.timestamp.span,
      });
    } else {
      compared.push("timestamp");
      const claimed = attributes.timestamp.value;
      const matches = claimed.dateOnly
        ? isoOf(recordedSeconds).slice(0, 10) === isoOf(claimed.seconds).slice(0, 10)
        : Math.abs(claimed.seconds - recordedSeconds) <= options.timestampToleranceSeconds;
      if (!matches)
        differ({
          attribute: "timestamp",
          claimed: attributes.timestamp.text,
          recorded: isoOf(recordedSeconds),
          span: attributes.timestamp.span,
        });
    }
  }
  return { differences, unchecked, compared };
};

/** A block as the store or the chain records it. */
export interface ComparableBlock {
  readonly number: string;
  readonly timestamp: string | null;
}

/**
 * For a claim citing a block but no transaction: compares the claimed time with the block's timestamp (the
 * only attribute a block settles).
 */
export const compareWithBlock = (
  attributes: ClaimAttributes,
  block: ComparableBlock,
  options: ComparisonOptions = defaultComparisonOptions,
): RecordComparison => {
  if (attributes.timestamp === undefined) return { differences: [], unchecked: [], compared: [] };
  return compareWithTransaction(
    { timestamp: attributes.timestamp },
    { hash: "", block_number: block.number, block_timestamp: block.timestamp },
    [],
    options,
  );
};
