import { Clock, Context, Effect } from "effect";
import { CitationVerifier, type CitationVerifierService } from "../citations/citation-verifier.js";
import { DuplicateChecker, type DuplicateCheckerService } from "../dedup/duplicate-checker.js";
import { ClaimSupportChecker, type ClaimSupportCheckerService } from "../relevance/claim-support-checker.js";
import type { MemoryStoreService } from "../store/memory-store.js";
import type { MemoryGateConfig } from "./gate-config.js";
import { validateClaim } from "./validate-claim.js";

/** How long `warmUp` may run: it stops at whichever limit it reaches first. */
export interface WarmUpOptions {
  /** Most validations run. Default 600. */
  readonly maxChecks?: number;
  /** Most time spent, in milliseconds; the check under way finishes. Default 3,000. */
  readonly maxMs?: number;
  /**
   * Ends the warm-up between two checks once aborted: a process that serves while it warms up (an MCP server
   * over stdio) stops when real work arrives rather than compete with it.
   */
  readonly signal?: AbortSignal;
}

/** What a warm-up did. */
export interface WarmUpReport {
  /** Validations run. */
  readonly checks: number;
  /** Time taken, in milliseconds, reading the sample included. */
  readonly elapsedMs: number;
  /** Stored memories the checks were drawn from (0 on an empty store: made-up sentences then). */
  readonly sampled: number;
}

export const defaultWarmUp = { maxChecks: 600, maxMs: 3_000 } as const;

/** Memories read from the store to check again. */
const sampleSize = 100;

/** Checked when the store holds nothing yet: the look-ups still run, and find no candidates. */
const madeUpClaims = [
  "The deployment pipeline runs the integration tests before every release to production.",
  "Our billing service retries a failed payment three times over two days before it gives up.",
  "The mobile app caches the last twenty search results so they open without a network connection.",
  "Support tickets marked urgent are answered within four hours during business days.",
];
const madeUpUser = "veracity-warm-up";

/** A citation verifier that reads nothing: the warm-up must not reach a repository or the network. */
const checksNoCitation: CitationVerifierService = {
  verify: (citation) => Effect.succeed({ citation, verified: false, reason: "not checked while warming up" }),
};

/**
 * Validates stored claims again, read only, until `maxChecks` or `maxMs`: a new process's first validations
 * are slow while V8 compiles the gate's code and, on the embedded store, tiers up PGlite's WebAssembly (at
 * 1,000,000 memories the first 200 of a new process measured p99 13-27 ms, and 6-8 ms after this warm-up). Each memory is checked as stored
 * (it finds itself: the candidates are fetched and compared) and with a few words added (a near duplicate);
 * citations are not checked and nothing is written. It never fails its caller: a store whose sample cannot be
 * read leaves the made-up claims, a duplicate look-up that fails counts as a check (the gate reports it as a
 * failed check, as it would to a caller), and a claim the gate refuses as input ends the warm-up.
 */
export const warmUpValidation = (
  store: MemoryStoreService,
  dependencies: {
    readonly dedup: DuplicateCheckerService;
    readonly support: ClaimSupportCheckerService;
  },
  config: MemoryGateConfig,
  options: WarmUpOptions = {},
): Effect.Effect<WarmUpReport> =>
  Effect.gen(function* () {
    const maxChecks = Math.max(0, options.maxChecks ?? defaultWarmUp.maxChecks);
    const maxMs = Math.max(0, options.maxMs ?? defaultWarmUp.maxMs);
    const started = yield* Clock.currentTimeMillis;
    // A store that cannot be read (an error or a defect) leaves the made-up claims: the warm-up never fails.
    const sample = yield* store
      .sample(sampleSize)
      .pipe(Effect.catchAllCause(() => Effect.succeed<readonly { userId: string; content: string }[]>([])));
    const claims =
      sample.length > 0
        ? sample.flatMap(({ userId, content }) => [
            { userId, content },
            { userId, content: `${content} That was noted again.` },
          ])
        : madeUpClaims.map((content) => ({ userId: madeUpUser, content }));
    const services = Context.make(DuplicateChecker, dependencies.dedup).pipe(
      Context.add(CitationVerifier, checksNoCitation),
      Context.add(ClaimSupportChecker, dependencies.support),
    );
    let checks = 0;
    while (
      checks < maxChecks &&
      options.signal?.aborted !== true &&
      (yield* Clock.currentTimeMillis) - started < maxMs
    ) {
      const claim = claims[checks % claims.length] as { userId: string; content: string };
      const outcome = yield* validateClaim(
        { content: claim.content, userId: claim.userId, source: "documentation", memoryType: "fact" },
        config,
      ).pipe(Effect.provide(services), Effect.either);
      checks += 1;
      if (outcome._tag === "Left") break;
      // An embedded store answers without the event loop turning, so a loop of checks would keep a process
      // that serves meanwhile from reading its input until the loop ends: one turn between two checks lets a
      // request in, and lets it abort the rest.
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)));
    }
    const elapsedMs = (yield* Clock.currentTimeMillis) - started;
    return { checks, elapsedMs, sampled: sample.length };
  });
