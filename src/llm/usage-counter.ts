import type { UsageReport } from "./llm-service.js";
import type { TokenUsage } from "./messages.js";

const maxPurposes = 64;

/** Running totals of one LLM service. */
export const makeUsageCounter = () => {
  let calls = 0;
  let cachedCalls = 0;
  let failedCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  const byPurpose = new Map<string, number>();
  return {
    sent: (purpose: string | undefined) => {
      calls += 1;
      const name = purpose ?? "unspecified";
      const key = byPurpose.has(name) || byPurpose.size < maxPurposes ? name : "other";
      byPurpose.set(key, (byPurpose.get(key) ?? 0) + 1);
    },
    cached: () => {
      cachedCalls += 1;
    },
    failed: () => {
      failedCalls += 1;
    },
    add: (usage: TokenUsage, cost: number) => {
      inputTokens += usage.inputTokens;
      outputTokens += usage.outputTokens;
      costUsd += cost;
    },
    report: (): UsageReport => ({
      calls,
      cachedCalls,
      failedCalls,
      inputTokens,
      outputTokens,
      costUsd,
      byPurpose: Object.fromEntries(byPurpose),
    }),
  };
};
