import { Decimal } from "decimal.js";
import type { AddressFlow, AddressFlowQuery } from "../store/aggregates.js";
import type { ClaimAttributes } from "./claim-attributes.js";
import {
  type ComparisonOptions,
  type RecordComparison,
  rawAmountOf,
  type SymbolTokens,
} from "./compare-transaction.js";
import { amountsMatch, describeWei } from "./units.js";

/**
 * The address flows a claim about an address's activity needs: "A received 4.5 TKN in blocks 100-110" is
 * the sum of TKN transfers to A in those blocks, one query per token the ticker may name. Undefined when the
 * claim states no amount or names no sender or recipient.
 */
export const addressFlowQueries = (
  attributes: ClaimAttributes,
  symbolTokens: SymbolTokens | undefined,
): AddressFlowQuery[] | undefined => {
  const parties = {
    ...(attributes.recipient === undefined ? {} : { recipient: attributes.recipient.value }),
    ...(attributes.sender === undefined ? {} : { sender: attributes.sender.value }),
  };
  if (parties.recipient === undefined && parties.sender === undefined) return undefined;
  const range =
    attributes.blockRange === undefined
      ? {}
      : { fromBlock: attributes.blockRange.value.from, toBlock: attributes.blockRange.value.to };
  if (attributes.etherAmount !== undefined) return [{ ...parties, ...range, token: "ether" }];
  const amount = attributes.tokenAmount;
  if (amount === undefined) return undefined;
  const tokens =
    attributes.token !== undefined
      ? [attributes.token.value]
      : (symbolTokens ?? []).map((token) => token.address);
  return tokens.slice(0, 20).map((token) => ({ ...parties, ...range, token }));
};

const describeQuery = (query: AddressFlowQuery, transfers: number) => {
  const parties = [query.sender ? `from ${query.sender}` : "", query.recipient ? `to ${query.recipient}` : ""]
    .filter(Boolean)
    .join(" ");
  const blocks =
    query.fromBlock === undefined
      ? "in every block of the evidence store"
      : `in blocks ${query.fromBlock}-${query.toBlock}`;
  return `${transfers} transfer${transfers === 1 ? "" : "s"} ${parties} ${blocks}`;
};

/**
 * Compares the amount a claim says an address received or sent with the sum the store records, within the
 * amount tolerance. The claim holds when one of the tokens its ticker may name matches.
 */
export const compareWithAddressFlows = (
  attributes: ClaimAttributes,
  flows: readonly AddressFlow[],
  symbolTokens: SymbolTokens | undefined,
  options: ComparisonOptions,
): RecordComparison => {
  const ether = attributes.etherAmount;
  const amount = attributes.tokenAmount;
  const claimedSpan = ether?.span ?? amount?.span;
  if (claimedSpan === undefined) return { differences: [], unchecked: [], compared: [] };
  if (flows.length === 0)
    return {
      differences: [],
      unchecked: [
        {
          attribute: "address-total",
          reason: `no token with the symbol ${amount?.symbol ?? "?"} and known decimals in the evidence store`,
          span: claimedSpan,
        },
      ],
      compared: [],
    };
  const recorded: string[] = [];
  for (const flow of flows) {
    const total = new Decimal(flow.total);
    if (ether !== undefined) {
      if (amountsMatch(ether.value, total, options.amountTolerance))
        return { differences: [], unchecked: [], compared: ["address-total"] };
      recorded.push(`${describeWei(total)} in ${describeQuery(flow.query, flow.transfers)}`);
      continue;
    }
    if (amount === undefined || flow.query.token === "ether") continue;
    const raw = rawAmountOf(amount.value, amount.symbol, flow.query.token, symbolTokens);
    if (raw === undefined) continue;
    if (amountsMatch(raw, total, options.amountTolerance))
      return { differences: [], unchecked: [], compared: ["address-total"] };
    const decimals = symbolTokens?.find((token) => token.address === flow.query.token)?.decimals ?? 0;
    const whole = amount.symbol === undefined ? total : total.dividedBy(new Decimal(10).pow(decimals));
    recorded.push(
      `${whole.toFixed()} ${amount.symbol ?? "tokens"} of ${flow.query.token} in ${describeQuery(flow.query, flow.transfers)}`,
    );
  }
  if (recorded.length === 0)
    return {
      differences: [],
      unchecked: [
        { attribute: "address-total", reason: "the token's decimals are unknown", span: claimedSpan },
      ],
      compared: [],
    };
  return {
    differences: [
      {
        attribute: "address-total",
        claimed: (ether ?? amount)?.text ?? "",
        recorded: recorded.slice(0, 3).join("; "),
        span: claimedSpan,
      },
    ],
    unchecked: [],
    compared: ["address-total"],
  };
};
