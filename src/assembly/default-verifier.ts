import type { Verifier } from "../facade/create-verifier.js";
import { buildVerifier, type VerifierFlags } from "./build-verifier.js";
import { lazyVerifier } from "./lazy-verifier.js";

/**
 * The verifier a surface uses when its caller gives none: the assembled verifier for `config` (by default the
 * offline layers, plus whatever `VERACITY_CONFIG` and `VERACITY_MODEL` add), built on first use.
 */
export const defaultVerifier = (
  config: VerifierFlags = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Verifier => lazyVerifier(() => buildVerifier(config, {}, env));
