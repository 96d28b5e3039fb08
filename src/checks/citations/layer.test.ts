import { Effect, Exit } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LayerInput } from "../../model/layer.js";
import { segmentClaims } from "../../text/claims.js";
import { makeCitationsLayer } from "./layer.js";
import type { EvidenceStore } from "./store/evidence-store.js";
import { openFixtureStore } from "./testing/fixture-store.js";

// From fixtures/ethereum/transactions.jsonl (block 483920, 1530219620000000000 wei).
const hash = "0x05287a561f218418892ab053adfb3d919860988b19458c570c5c30f51c146f02";
const sender = "0x2a65aca4d5fc5b5c859090a6c34d164135398226";
const recipient = "0x743b8aeedc163c0e3a0fe9f3910d146c48e70da8";
const otherAddress = "0x1b63142628311395ceafeea5667e7c9026c862ca";
const fabricated = `0x${"5e".repeat(32)}`;

const inputOf = (text: string): LayerInput => ({ text, claims: segmentClaims(text), evidence: [] });

const issueCodes = (store: EvidenceStore, text: string) =>
  Effect.runPromise(makeCitationsLayer({ store }).run(inputOf(text))).then((result) =>
    (result.claims ?? []).flatMap((claim) => claim.issues.map((issue) => issue.code)),
  );

describe("citations layer against the fixture store", () => {
  let store: EvidenceStore;
  beforeAll(async () => {
    store = await Effect.runPromise(openFixtureStore());
  });
  afterAll(async () => {
    await Effect.runPromise(store.close);
  });

  it.each([
    [
      "a true claim",
      `[ADDR:${sender}] sent 1.53 ETH to [ADDR:${recipient}] in [TX:${hash}] at [BLOCK:483920].`,
      [],
    ],
    ["a value within 1%", `[ADDR:${sender}] sent 1530.5 finney-ish 1.5365 ETH in [TX:${hash}].`, []],
    ["the same value in gwei", `[TX:${hash}] moved 1530219620 gwei.`, []],
    [
      "a fabricated transaction",
      `[ADDR:${sender}] sent 1.53 ETH in [TX:${fabricated}].`,
      ["CITATION_NOT_FOUND"],
    ],
    [
      "a wrong sender",
      `[ADDR:${otherAddress}] sent 1.53 ETH to [ADDR:${recipient}] in [TX:${hash}].`,
      ["CITATION_MISMATCH"],
    ],
    [
      "a wrong recipient",
      `[ADDR:${sender}] sent 1.53 ETH to [ADDR:${otherAddress}] in [TX:${hash}].`,
      ["CITATION_MISMATCH"],
    ],
    [
      "a wrong value",
      `[ADDR:${sender}] sent 2.3 ETH to [ADDR:${recipient}] in [TX:${hash}].`,
      ["CITATION_MISMATCH"],
    ],
    ["a wrong block", `[TX:${hash}] was mined at [BLOCK:17173049].`, ["CITATION_MISMATCH"]],
    [
      "a fabricated block",
      `[TX:${hash}] was mined at [BLOCK:99999999].`,
      ["CITATION_NOT_FOUND", "CITATION_MISMATCH"],
    ],
    ["an unknown address", `[ADDR:0x${"12".repeat(20)}] received funds.`, ["CITATION_NOT_FOUND"]],
    [
      "an uncited transfer",
      "The wallet sent 5 ETH to the exchange on 2024-01-15.",
      ["UNCITED_CLAIM", "UNCITED_CLAIM"],
    ],
    ["a URL with no URL verifier", "See https://example.org for details.", ["CITATION_ERROR"]],
  ])("%s", async (_, text, expected) => {
    expect(await issueCodes(store, text)).toEqual(expected);
  });

  it("reports the mismatch on the claimed value with the recorded one", async () => {
    const text = `[ADDR:${sender}] sent 2.3 ETH to [ADDR:${recipient}] in [TX:${hash}].`;
    const result = await Effect.runPromise(makeCitationsLayer({ store }).run(inputOf(text)));
    const issue = result.claims?.[0]?.issues[0];
    expect(issue && text.slice(issue.span.start, issue.span.end)).toBe("2.3 ETH");
    expect(issue?.expected).toContain("1530219620000000000 wei");
    expect(result.passed).toBe(false);
    expect(result.claims?.[0]?.verdict).toBe("contradicted");
  });

  it("passes a text whose citations all check out, with claim findings", async () => {
    const text = `Funds moved. [ADDR:${sender}] sent 1.53 ETH to [ADDR:${recipient}] in [TX:${hash}].`;
    const result = await Effect.runPromise(makeCitationsLayer({ store }).run(inputOf(text)));
    expect(result.passed).toBe(true);
    expect(result.details).toMatchObject({ citations: 3, verified: 3, notFound: 0 });
    expect(result.claims?.map((claim) => claim.verdict)).toEqual(["supported"]);
  });

  it("checks token amounts against the transaction's token transfers", async () => {
    const transfer = "0xeb107a40ba73a50c79a9f2026e902d758d1c5e5e211f7a7db1b294f88f118dd0";
    const from = "0x6b75d8af000000e20b7a7ddf000ba900b4009a80";
    const to = "0x7054b0f980a7eb5b3a6b3446f3c947d80162775c";
    expect(
      await issueCodes(
        store,
        `[ADDR:${from}] transferred 7056176614974947328 tokens to [ADDR:${to}] in [TX:${transfer}].`,
      ),
    ).toEqual([]);
    expect(
      await issueCodes(
        store,
        `[ADDR:${from}] transferred 9000000000000000000 tokens to [ADDR:${to}] in [TX:${transfer}].`,
      ),
    ).toEqual(["CITATION_MISMATCH"]);
  });
});

describe("citations layer readiness and outages", () => {
  it("is not ready with nothing to check against", () => {
    const readiness = makeCitationsLayer({}).readiness(inputOf("[BLOCK:1]"));
    expect(readiness.ready).toBe(false);
  });

  it("turns a store outage into CITATION_ERROR, never a pass", async () => {
    const store = await Effect.runPromise(openFixtureStore());
    await Effect.runPromise(store.close);
    const result = await Effect.runPromise(
      makeCitationsLayer({ store }).run(inputOf(`[BLOCK:483920] exists.`)),
    );
    expect(result.passed).toBe(false);
    expect(result.claims?.[0]?.issues.map((issue) => issue.code)).toEqual(["CITATION_ERROR"]);
  });

  it("refuses a text with more citations than allowed", async () => {
    const store = await Effect.runPromise(openFixtureStore());
    const text = Array.from({ length: 20 }, (_, index) => `[BLOCK:${index}]`).join(" ");
    const exit = await Effect.runPromiseExit(
      makeCitationsLayer({ store, maxCitations: 5 }).run(inputOf(text)),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    await Effect.runPromise(store.close);
  });
});

describe("citations layer configuration", () => {
  const ticketVerifier = (answer: "VERIFIED" | "NOT_FOUND" | "hang") => ({
    name: "tickets",
    kinds: ["ticket"],
    verify: (citations: readonly { kind: string; value: string }[]) =>
      answer === "hang"
        ? Effect.never
        : Effect.succeed(
            new Map(
              citations.map((citation) => [
                `${citation.kind}\u0000${citation.value}`,
                { status: answer, detail: "scripted", source: "tickets" } as const,
              ]),
            ),
          ),
  });

  it.each([
    ["VERIFIED", []],
    ["NOT_FOUND", ["CITATION_NOT_FOUND"]],
  ] as const)("checks a custom kind with its configured verifier (%s)", async (answer, expected) => {
    const layer = makeCitationsLayer({
      customKinds: [{ kind: "ticket", pattern: /\bTICKET-(\d{1,6})\b/g, verifier: ticketVerifier(answer) }],
    });
    const result = await Effect.runPromise(layer.run(inputOf("Fixed in TICKET-42 yesterday.")));
    expect((result.claims ?? []).flatMap((claim) => claim.issues.map((issue) => issue.code))).toEqual(
      expected,
    );
  });

  it.each([
    ["a built-in name", "address"],
    ["a name its verifier does not handle", "other"],
  ])("refuses a custom kind with %s", (_, kind) => {
    expect(() =>
      makeCitationsLayer({
        customKinds: [{ kind, pattern: /\bX-(\d{1,3})\b/g, verifier: ticketVerifier("VERIFIED") }],
      }),
    ).toThrow(/custom citation kind|does not handle/);
  });

  it("fails with a timeout error when a verifier hangs, never a pass", async () => {
    const layer = makeCitationsLayer({
      customKinds: [{ kind: "ticket", pattern: /\bTICKET-(\d{1,6})\b/g, verifier: ticketVerifier("hang") }],
      timeoutMs: 100,
    });
    const exit = await Effect.runPromiseExit(layer.run(inputOf("Fixed in TICKET-42.")));
    expect(exit._tag === "Failure" && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe(
      "VerificationTimeoutError",
    );
  });

  it("keeps a citation that falls outside every segmented claim", async () => {
    const layer = makeCitationsLayer({
      customKinds: [
        { kind: "ticket", pattern: /\bTICKET-(\d{1,6})\b/g, verifier: ticketVerifier("NOT_FOUND") },
      ],
    });
    const text = "First claim here. Trailing TICKET-7";
    const result = await Effect.runPromise(
      layer.run({
        text,
        claims: [{ index: 0, text: "First claim here.", span: { start: 0, end: 17 }, kind: "factual" }],
        evidence: [],
      }),
    );
    expect(result.passed).toBe(false);
    expect(result.claims?.[0]?.issues[0]?.span).toEqual({ start: 27, end: 35 });
  });
});

describe("block timestamps", () => {
  it.each([
    ["[BLOCK:483920] was mined on [TS:2015-11-03].", []],
    ["[BLOCK:483920] was mined on [TS:2016-01-01].", ["CITATION_MISMATCH"]],
  ])("%s", async (text, expected) => {
    const store = await Effect.runPromise(openFixtureStore());
    try {
      expect(await issueCodes(store, text)).toEqual(expected);
    } finally {
      await Effect.runPromise(store.close);
    }
  });
});
