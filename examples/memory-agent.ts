/**
 * An agent writing to its memory through the gate: what it may store is decided by the claim's evidence.
 * A user's stated preference is stored; an unsupported claim the agent synthesised is not stored.
 *
 *   node --import tsx examples/memory-agent.ts
 *
 * Uses an in-memory PGlite database; pass a PGlite directory or a postgres:// URL to keep the memories.
 */
import { pathToFileURL } from "node:url";
import { createMemoryGate } from "../src/memory/index.js";

export const main = async (database = "memory://") => {
  const gate = await createMemoryGate({ database });
  try {
    const userId = "example-user";
    const writes = [
      { content: "I prefer answers in metric units.", memoryType: "preference", source: "user", userId },
      {
        content: "The production database was migrated to MongoDB last week.",
        memoryType: "fact",
        source: "ai_synthesis",
        userId,
      },
    ] as const;
    const outcomes = [];
    for (const candidate of writes) {
      const outcome = await gate.ingest(candidate);
      outcomes.push({ content: candidate.content, status: outcome.status, reason: outcome.result.reason });
    }
    const stored = await gate.search(userId, "metric units");
    return { outcomes, stored: stored.map((hit) => hit.memory.content) };
  } finally {
    await gate.close();
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await main(process.argv[2]), null, 2));
}
