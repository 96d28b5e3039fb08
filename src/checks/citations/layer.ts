import { Duration, Effect } from "effect";
import { ConfigError, InputError, VerificationError, VerificationTimeoutError } from "../../model/errors.js";
import type { Claim, VerificationLayer } from "../../model/layer.js";
import { notReady, ready } from "../../model/layer.js";
import { builtInCitationKinds, type VerifiedCitation } from "./citation.js";
import { type ClaimCitations, claimFinding, groupByClaim } from "./claim-findings.js";
import { extractCitations } from "./extract/extract.js";
import type { CitationPattern } from "./extract/patterns.js";
import { type ClaimAttributes, readClaimAttributes } from "./records/claim-attributes.js";
import { addressFlowQueries, compareWithAddressFlows } from "./records/compare-address-flow.js";
import {
  type ComparableBlock,
  type ComparableTransaction,
  type ComparisonOptions,
  compareWithBlock,
  compareWithTransaction,
  defaultComparisonOptions,
} from "./records/compare-transaction.js";
import { scoreReport } from "./report/confidence.js";
import { findTokensBySymbol, sumAddressFlow, type TokenRecord } from "./store/aggregates.js";
import type { EvidenceStore } from "./store/evidence-store.js";
import { tokensForSymbol } from "./store/known-tokens.js";
import type { TokenTransferRecord } from "./store/records.js";
import { defaultUncitedOptions, findUncitedStatements, type UncitedOptions } from "./uncited/find-uncited.js";
import { type AdrVerifierOptions, makeAdrVerifier } from "./verifiers/adr-verifier.js";
import { type GitVerifierOptions, makeGitVerifier } from "./verifiers/git-verifier.js";
import { type IssueVerifierOptions, makeIssueVerifier } from "./verifiers/issue-verifier.js";
import { makeJsonRpcVerifier } from "./verifiers/jsonrpc-verifier.js";
import { makeStoreVerifier } from "./verifiers/store-verifier.js";
import { makeUrlVerifier, type UrlVerifierOptions } from "./verifiers/url-verifier.js";
import type { CitationVerifier } from "./verifiers/verifier.js";
import { type VerificationPlan, verifyCitations } from "./verify-citations.js";

/** A citation kind added by configuration: how to find it and how to check it. */
export interface CustomCitationKind {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly verifier: CitationVerifier;
  /** Overlap priority against the built-ins (default 50: after URLs, before bare hex). */
  readonly priority?: number;
}

export interface CitationsLayerOptions {
  /** The SQL evidence store for transactions, blocks and addresses. */
  readonly store?: EvidenceStore;
  /** Ethereum JSON-RPC endpoint asked about transactions and blocks the store lacks. */
  readonly rpcUrl?: string;
  /** Repository whose commits may be cited. */
  readonly git?: GitVerifierOptions;
  /** Folder of architecture decision records. */
  readonly adr?: AdrVerifierOptions;
  /** URL checks (SSRF-protected). */
  readonly url?: UrlVerifierOptions;
  /** Issue tracker endpoint. */
  readonly issues?: IssueVerifierOptions;
  readonly customKinds?: readonly CustomCitationKind[];
  readonly comparison?: Partial<ComparisonOptions>;
  readonly uncited?: Partial<UncitedOptions>;
  /** Most citations checked in one text (default 10,000): more is refused, never half-checked. */
  readonly maxCitations?: number;
  /** Whole-layer deadline (default 30 s). */
  readonly timeoutMs?: number;
}

const maxCustomKinds = 50;

/** Custom kinds need their own name and a verifier for it; a mistake is a ConfigError at construction. */
const validateCustomKinds = (kinds: readonly CustomCitationKind[]): void => {
  if (kinds.length > maxCustomKinds)
    throw new ConfigError({ key: "customKinds", message: `at most ${maxCustomKinds} custom citation kinds` });
  const seen = new Set<string>(builtInCitationKinds);
  for (const custom of kinds) {
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(custom.kind) || seen.has(custom.kind))
      throw new ConfigError({
        key: "customKinds",
        message: `custom citation kind "${custom.kind}" is invalid or taken`,
      });
    if (!custom.verifier.kinds.includes(custom.kind))
      throw new ConfigError({
        key: "customKinds",
        message: `the verifier of "${custom.kind}" does not handle it`,
      });
    seen.add(custom.kind);
  }
};

/** The verifiers the options configure, in the order they are asked. */
export const verificationPlanOf = (options: CitationsLayerOptions): VerificationPlan => {
  const verifiers: CitationVerifier[] = [];
  for (const custom of options.customKinds ?? []) verifiers.push(custom.verifier);
  if (options.store) verifiers.push(makeStoreVerifier(options.store));
  if (options.git) verifiers.push(makeGitVerifier(options.git));
  if (options.adr) verifiers.push(makeAdrVerifier(options.adr));
  if (options.url) verifiers.push(makeUrlVerifier(options.url));
  if (options.issues) verifiers.push(makeIssueVerifier(options.issues));
  const rpc = options.rpcUrl === undefined ? undefined : makeJsonRpcVerifier({ rpcUrl: options.rpcUrl });
  // Without a store, JSON-RPC is the primary verifier for transactions and blocks.
  if (rpc && !options.store) verifiers.push(rpc);
  return { verifiers, ...(rpc && options.store ? { fallback: rpc } : {}) };
};

const transactionRecordOf = (citations: readonly VerifiedCitation[]): ComparableTransaction | undefined => {
  const transactions = citations.filter(({ citation }) => citation.kind === "transaction");
  const only = transactions.length === 1 ? transactions[0] : undefined;
  if (only === undefined || only.check.status !== "VERIFIED") return undefined;
  return only.check.record as ComparableTransaction | undefined;
};

const blockRecordOf = (citations: readonly VerifiedCitation[]): ComparableBlock | undefined => {
  const blocks = citations.filter(({ citation }) => citation.kind === "block");
  const only = blocks.length === 1 ? blocks[0] : undefined;
  if (only === undefined || only.check.status !== "VERIFIED") return undefined;
  return only.check.record as ComparableBlock | undefined;
};

const wholeText = (text: string): Claim => ({
  index: 0,
  text,
  span: { start: 0, end: text.length },
  kind: "factual",
});

/**
 * The `citations` evidence layer: extracts typed citations, checks that each cited thing exists (store,
 * JSON-RPC, git, ADR folder, URL, issue tracker), compares what each claim says with the transaction it
 * cites, and flags factual statements with no citation. Issues: CITATION_NOT_FOUND, CITATION_MISMATCH,
 * CITATION_ERROR (could not check: never a pass) and UNCITED_CLAIM, with spans into the text.
 */
export const makeCitationsLayer = (options: CitationsLayerOptions): VerificationLayer => {
  validateCustomKinds(options.customKinds ?? []);
  const plan = verificationPlanOf(options);
  const comparison: ComparisonOptions = { ...defaultComparisonOptions, ...options.comparison };
  const uncitedOptions: UncitedOptions = { ...defaultUncitedOptions, ...options.uncited };
  const customPatterns: CitationPattern[] = (options.customKinds ?? []).map((custom) => ({
    kind: custom.kind,
    pattern: custom.pattern,
    priority: custom.priority ?? 50,
  }));
  const maxCitations = options.maxCitations ?? 10_000;

  const run = (input: Parameters<VerificationLayer["run"]>[0]) =>
    Effect.gen(function* () {
      const started = performance.now();
      const extraction = extractCitations(input.text, {
        customPatterns,
        maxCitations,
        proseIdentifiers: true,
      });
      if (extraction.truncated) {
        const message = `more than ${maxCitations} citations in one text: refused rather than half-checked`;
        // The text is at fault, not the layer: the cause says so, for surfaces that answer the caller (HTTP 422).
        return yield* new VerificationError({
          layer: "citations",
          message,
          cause: new InputError({ code: "too-many-citations", message }),
        });
      }
      const checked = yield* verifyCitations(extraction.citations, { ...plan });
      const uncited = findUncitedStatements(input.text, extraction.citations, uncitedOptions);
      const claims = input.claims.length > 0 ? input.claims : [wholeText(input.text)];
      const groups = groupByClaim(claims, checked, uncited);

      const storeError = (error: { message: string }) =>
        new VerificationError({ layer: "citations", message: error.message, cause: error });
      const withAttributes = groups
        .filter((group) => group.citations.length > 0 || group.uncited.length > 0)
        .map((group) => ({
          ...group,
          record: transactionRecordOf(group.citations),
          attributes: readClaimAttributes(
            input.text,
            group.claim.span,
            group.citations.map(({ citation }) => citation),
          ),
        }));

      // Tickers ("7.056 WETH") are read with the decimals of the tokens that carry them.
      const symbols = [
        ...new Set(withAttributes.flatMap(({ attributes }) => attributes.tokenAmount?.symbol ?? [])),
      ];
      const storedTokens =
        options.store && symbols.length > 0
          ? yield* findTokensBySymbol(options.store.sql, symbols).pipe(Effect.mapError(storeError))
          : new Map<string, readonly TokenRecord[]>();
      const symbolTokensOf = (attributes: ClaimAttributes) => {
        const symbol = attributes.tokenAmount?.symbol;
        return symbol === undefined ? undefined : tokensForSymbol(symbol, storedTokens.get(symbol) ?? []);
      };

      const tokenClaimTransactions = withAttributes.flatMap(({ record, attributes }) =>
        record && attributes.tokenAmount !== undefined ? [record.hash] : [],
      );
      const transfers: ReadonlyMap<string, readonly TokenTransferRecord[]> =
        options.store && tokenClaimTransactions.length > 0
          ? yield* options.store.findTokenTransfers(tokenClaimTransactions).pipe(Effect.mapError(storeError))
          : new Map();

      // A claim about an address's activity with no transaction cited is compared with the address's total.
      const flowsOf = (group: (typeof withAttributes)[number]) =>
        Effect.gen(function* () {
          const store = options.store;
          const cites = (kind: string) => group.citations.some(({ citation }) => citation.kind === kind);
          if (store === undefined || cites("transaction") || !cites("address")) return undefined;
          const queries = addressFlowQueries(group.attributes, symbolTokensOf(group.attributes));
          if (queries === undefined) return undefined;
          return yield* Effect.forEach(queries, (query) => sumAddressFlow(store.sql, query), {
            concurrency: 1,
          });
        });

      const detailed: ClaimCitations[] = [];
      for (const group of withAttributes) {
        const { record, attributes } = group;
        const block = record === undefined ? blockRecordOf(group.citations) : undefined;
        const flows =
          record === undefined ? yield* flowsOf(group).pipe(Effect.mapError(storeError)) : undefined;
        const compared =
          record !== undefined
            ? compareWithTransaction(
                attributes,
                record,
                transfers.get(record.hash) ?? [],
                comparison,
                symbolTokensOf(attributes),
              )
            : flows !== undefined
              ? compareWithAddressFlows(attributes, flows, symbolTokensOf(attributes), comparison)
              : block !== undefined
                ? compareWithBlock(attributes, block, comparison)
                : undefined;
        detailed.push({
          claim: group.claim,
          citations: group.citations,
          uncited: group.uncited,
          comparison: compared,
        });
      }
      const findings = detailed.map(claimFinding);
      const failing = findings.filter((finding) => finding.issues.length > 0);
      const countOf = (status: string) => checked.filter(({ check }) => check.status === status).length;
      return {
        layer: "citations" as const,
        passed: failing.length === 0,
        score: findings.length === 0 ? 1 : scoreReport(findings.map((finding) => finding.score)),
        latencyMs: performance.now() - started,
        details: {
          citations: checked.length,
          verified: countOf("VERIFIED"),
          notFound: countOf("NOT_FOUND"),
          errors: countOf("ERROR"),
          mismatches: detailed.reduce((sum, group) => sum + (group.comparison?.differences.length ?? 0), 0),
          uncitedStatements: uncited.length,
          foundOnChainOnly: checked.filter(
            ({ check }) => check.source === "json-rpc" && check.status === "VERIFIED",
          ).length,
          checks: checked.slice(0, 200).map(({ citation, check }) => ({
            kind: citation.kind,
            value: citation.value,
            status: check.status,
            source: check.source,
            detail: check.detail,
          })),
        },
        claims: findings,
      };
    });

  return {
    name: "citations",
    kind: "evidence",
    readiness: () =>
      plan.verifiers.length > 0
        ? ready
        : notReady("no evidence store, JSON-RPC endpoint or other citation verifier configured"),
    run: (input) =>
      run(input).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(options.timeoutMs ?? 30_000),
          onTimeout: () =>
            new VerificationTimeoutError({
              layer: "citations",
              message: "citation checks did not finish in time",
              timeoutMs: options.timeoutMs ?? 30_000,
            }),
        }),
      ),
  };
};
