import { ConfigError } from "../../model/errors.js";
import type { CustomCitationKind } from "./layer.js";
import { makeHttpLookupVerifier } from "./verifiers/http-lookup-verifier.js";

/** A custom citation kind as written in a configuration file: no code, a pattern and a lookup URL. */
export interface CustomKindConfig {
  readonly kind: string;
  /** Regular expression source; the first capture group is the value. */
  readonly pattern: string;
  readonly flags?: string;
  /** `{value}` is replaced by the URL-encoded value: `https://tracker.example/api/tickets/{value}`. */
  readonly lookupUrl: string;
  readonly token?: string;
}

const maxPatternLength = 200;
/** A quantified group that itself contains a quantifier: the shape of catastrophic backtracking. */
const nestedQuantifier = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{?]/;

/**
 * Turns a configured kind into a pattern plus an HTTP existence verifier. Patterns that are long, not
 * capturing, or have nested quantifiers are refused so extraction stays linear.
 */
export const customKindFromConfig = (config: CustomKindConfig): CustomCitationKind => {
  const fail = (message: string) => new ConfigError({ key: `citations.kinds.${config.kind}`, message });
  if (config.pattern.length > maxPatternLength)
    throw fail(`pattern longer than ${maxPatternLength} characters`);
  if (nestedQuantifier.test(config.pattern)) throw fail("pattern has nested quantifiers (backtracking risk)");
  if (!/^https?:\/\/[^\s]+\{value\}/.test(config.lookupUrl))
    throw fail("lookupUrl must be http(s) and contain {value}");
  let pattern: RegExp;
  try {
    pattern = new RegExp(config.pattern, `${(config.flags ?? "").replace("g", "")}g`);
  } catch (error) {
    throw fail(`invalid pattern: ${(error as Error).message}`);
  }
  if (!/\((?!\?)/.test(config.pattern)) throw fail("pattern needs a capture group for the value");
  return {
    kind: config.kind,
    pattern,
    verifier: makeHttpLookupVerifier({
      name: config.kind,
      kinds: [config.kind],
      urlFor: (value) => config.lookupUrl.replaceAll("{value}", encodeURIComponent(value)),
      ...(config.token === undefined ? {} : { token: config.token }),
    }),
  };
};
