/**
 * Example bodies for the OpenAPI document, one per operation. The test validates every example that has a
 * schema against it, so an example cannot drift from what the server decodes.
 */
const answer = "Revenue rose 12% to $4.2 million.";
const source = "In the third quarter of 2025, revenue rose 12% to $4.2 million.";

const evidence = {
  claim: "The team chose PostgreSQL for the audit log.",
  captureTime: "2026-01-05T10:00:00.000Z",
  confidence: "high",
  sourceId: "source:adr",
};

const validation = (tier: string, reason: string) => ({
  tier,
  approved: tier === "auto-approve",
  reason,
  evidence,
  checksPassed: ["no_speculation", "not_duplicate"],
  checksFailed: [],
});

const pending = {
  queueId: "3f0c2a7e-2d4b-4f8e-9a51-0c6d2b1e7a90",
  userId: "alice",
  content: "The launch moved to May.",
  memoryType: "fact",
  source: "conversation",
  evidence: {
    ...evidence,
    claim: "The launch moved to May.",
    confidence: "low",
    sourceId: "source:conversation",
  },
  validation: validation("flag-review", "no evidence for the claim"),
  submittedAt: "2026-01-05T10:00:00.000Z",
};

const nliRefit = { a: -4.1, b: 2.3 };

/** One refit from reviewed outcomes, as `POST /v1/calibration/refit` answers it and `GET /v1/calibration` shows it. */
const refitExample = {
  at: "2026-11-26T00:00:00.000Z",
  actor: "scheduler",
  outcomes: 240,
  refitted: [
    {
      layer: "nli",
      model: nliRefit,
      tuneSamples: 118,
      reportSamples: 122,
      eceBefore: 0.21,
      eceAfter: 0.06,
    },
  ],
  skipped: [
    {
      layer: "semantic-entropy",
      reason: "needs at least 20 tuning samples with both labels (has 4, 4 supported)",
    },
  ],
};

export const examples = {
  verifyRequest: { text: answer, sources: [source], question: "How did revenue develop?" },
  checkRequest: { text: answer, sources: [source] },
  verificationResult: {
    verdict: "pass",
    passed: true,
    hallucinationScore: 0.12,
    coverage: 1,
    overallConfidence: 0.88,
    riskLevel: "medium",
    layersRun: [
      {
        layer: "grounding",
        passed: true,
        score: 1,
        latencyMs: 4.2,
        details: { claimsChecked: 1, claimsFailing: 0, passages: 1 },
      },
    ],
    mitigations: [],
    totalLatencyMs: 9.8,
    costIncurred: 0,
    claims: [
      {
        text: answer,
        span: { start: 0, end: 33 },
        kind: "factual",
        verdict: "supported",
        score: 1,
        evidence: [{ source: 0, span: { start: 0, end: 63 }, text: source, score: 1, relation: "supports" }],
        issues: [],
        layers: ["grounding"],
        signals: { localCoverage: 1, novelty: 0, bestPassageShare: 1, pairShare: 1, contentWords: 4 },
      },
    ],
    skippedLayers: [],
    reasons: [],
  },
  calculateRequest: { expression: "(0.50 - 0.45) / 0.45 * 100" },
  calculation: {
    expression: "(0.50 - 0.45) / 0.45 * 100",
    result: "11.111111111111111111",
    value: 11.11111111111111,
  },
  numbersRequest: { text: answer, sources: [source] },
  numbersResult: {
    exactMatches: 2,
    closeMatches: [],
    derived: [],
    orphanNumbers: [],
    suspicious: [],
    numbers: [
      {
        text: "12%",
        span: { start: 13, end: 16 },
        kind: "percent",
        status: "exact",
        expected: "12",
        source: 0,
      },
    ],
  },
  citationsRequest: { text: "The transfer is in block 19000000 (tx 0x5c50…)." },
  citationsResult: { layer: "citations", passed: true, score: 1, latencyMs: 3.1, claims: [] },
  calibrateRequest: {
    samples: [
      { score: 0.9, supported: true },
      { score: 0.2, supported: false },
    ],
  },
  calibration: {
    model: { a: -1.98, b: 1.09 },
    converged: true,
    iterations: 3,
    before: { count: 2, ece: 0.15, brier: 0.025, logLoss: 0.164 },
    after: { count: 2, ece: 0.1, brier: 0.02, logLoss: 0.15 },
  },
  sourceUpload: {
    text: "Northwind Traders annual report 2024. Revenue rose from $4.2 million to $5.0 million.",
  },
  sourceStored: { hash: "465bc9310030237ff8935c5d698333104fead247713979b1003bad55d56d51c8", chars: 85 },
  calibrationOutcomesRequest: {
    outcomes: [
      { layer: "nli", rawScore: 0.82, supported: true, verificationId: "ticket-4411" },
      { layer: "nli", rawScore: 0.64, supported: false },
    ],
  },
  calibrationOutcomesRecorded: { recorded: 2 },
  calibrationRefitRequest: { reason: "a new model version went live on the nli layer" },
  calibrationRefit: refitExample,
  calibrationStatus: { intervalMs: 86_400_000, models: { nli: nliRefit }, lastRefit: refitExample },
  ingestRequest: {
    content: "The team chose PostgreSQL for the audit log.",
    memoryType: "decision",
    source: "adr",
  },
  ingestStored: {
    status: "stored",
    result: validation("auto-approve", "From trusted source: adr"),
    memory: {
      id: "e8614a6b-6b3c-42c3-95f0-b3b6bded6ff8",
      userId: "alice",
      content: "The team chose PostgreSQL for the audit log.",
      memoryType: "decision",
      source: "adr",
      evidence,
      createdAt: "2026-01-05T10:00:00.000Z",
    },
  },
  ingestQueued: { status: "queued", result: validation("flag-review", "no evidence for the claim"), pending },
  ingestBlocked: { status: "blocked", result: validation("block", "speculative claim") },
  searchRequest: { query: "audit log database", limit: 5 },
  searchResult: {
    hits: [{ id: "mem_01", content: "The team chose PostgreSQL for the audit log.", score: 0.82 }],
  },
  pendingItem: pending,
  pendingItems: { items: [pending] },
  approved: { status: "approved", memory: { id: "mem_02", content: "The launch moved to May." } },
  rejectRequest: { reason: "The launch date did not change." },
  auditEntries: {
    entries: [
      { action: "enqueue", actor: "alice", userId: "alice", queueId: "q_01", at: "2026-01-05T10:00:00.000Z" },
    ],
  },
  auditVerification: { intact: true, checked: 42, problems: [], last: { sequence: 42, hash: "9f2c…" } },
  metricsText: '# TYPE veracity_verifications_total counter\nveracity_verifications_total{passed="true"} 3\n',
} as const;
