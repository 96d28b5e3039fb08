import type { Verifier, VerifierTools } from "../facade/create-verifier.js";
import { verifyPrepared } from "../facade/prepared-answer.js";
import { verifyAs } from "../facade/verify-as.js";

/**
 * A verifier that is built on first use: surfaces whose constructors are synchronous (an MCP server's
 * dependencies, an AI SDK middleware, a LangChain runnable) still get the assembled verifier, with its
 * settings file and model read once. A build that fails rejects every call with the same error; closing a
 * verifier that was never used builds nothing.
 */
export const lazyVerifier = (build: () => Promise<Verifier>): Verifier & Pick<VerifierTools, "verifyFor"> => {
  let built: Promise<Verifier> | undefined;
  const get = () => {
    built ??= build();
    return built;
  };
  return {
    verify: async (request) => (await get()).verify(request),
    // On behalf of a user where the built verifier can (see VerifierTools.verifyFor), else a plain verify.
    verifyFor: async (userId, request) => verifyAs(await get(), userId, request),
    verifyPrepared: async (request, options) => verifyPrepared(await get(), request, options),
    runLayer: async (layer, text, context, sources) => (await get()).runLayer(layer, text, context, sources),
    assessRisk: async (text, context) => (await get()).assessRisk(text, context),
    subscribe: async (handler) => (await get()).subscribe(handler),
    // A verifier not built yet (or whose build failed) has no caches: asking builds nothing.
    cacheStats: async () => {
      const verifier = built === undefined ? undefined : await built.catch(() => undefined);
      return (await verifier?.cacheStats?.()) ?? [];
    },
    close: async () => {
      if (built === undefined) return;
      await (await built.catch(() => undefined))?.close();
    },
  };
};
