import type { TokenRecord } from "./aggregates.js";

/**
 * Ethereum mainnet tokens whose contracts fix their symbol and decimals, for stores imported without a
 * tokens file: a claim in WETH or USDC can be read in whole tokens. The store's own token records come first.
 */
export const wellKnownTokens: readonly TokenRecord[] = [
  { address: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2", symbol: "WETH", decimals: 18 },
  { address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", symbol: "USDC", decimals: 6 },
  { address: "0xdac17f958d2ee523a2206206994597c13d831ec7", symbol: "USDT", decimals: 6 },
  { address: "0x6b175474e89094c44da98b954eedeac495271d0f", symbol: "DAI", decimals: 18 },
  { address: "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599", symbol: "WBTC", decimals: 8 },
];

/** The store's tokens for a symbol, then the well-known ones at addresses the store does not describe. */
export const tokensForSymbol = (symbol: string, stored: readonly TokenRecord[]): TokenRecord[] => {
  const known = new Set(stored.map((token) => token.address));
  return [
    ...stored,
    ...wellKnownTokens.filter((token) => token.symbol === symbol.toUpperCase() && !known.has(token.address)),
  ];
};
