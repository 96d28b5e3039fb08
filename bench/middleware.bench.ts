/**
 * Overhead of `veracityMiddleware` (offline layers: grounding + numbers) against the same model unwrapped,
 * in the same run: a 1 KB answer checked against 10 KB of sources, through `generateText`.
 *
 *   node --import tsx bench/middleware.bench.ts
 *
 * The model is the AI SDK's in-process MockLanguageModelV3, so the difference is the middleware alone.
 * Calls alternate (unwrapped, wrapped) so both see the same machine load. Bounded: a short warm-up, then at
 * most 300 pairs or ~15 s. Prints medians and p90 of each and of the paired difference, and the time of
 * `verifier.verify` alone on the same input, which separates the checks' cost from the middleware's plumbing.
 */
import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createVerifier } from "../src/facade/create-verifier.js";
import { veracityMiddleware } from "../src/integrations/ai-sdk/index.js";

const cities = ["Lisbon", "Oslo", "Quito", "Hanoi", "Dakar", "Perth", "Lima", "Riga", "Tunis", "Sapporo"];
const products = ["ledger", "router", "scanner", "gateway", "archive", "console", "monitor", "planner"];

/** Deterministic source sentences: varied wording and numbers, about 75 characters each. */
const sentence = (index: number): string => {
  const city = cities[index % cities.length];
  const product = products[(index * 7) % products.length];
  return `The ${city} team shipped the ${product} release ${index + 1} with ${120 + index * 13} fixes in ${2001 + (index % 23)}.`;
};

const sourceSentences: string[] = [];
while (sourceSentences.join(" ").length < 10_240) sourceSentences.push(sentence(sourceSentences.length));
const sources = [sourceSentences.join(" ")];
const answerSentences: string[] = [];
for (let index = 0; answerSentences.join(" ").length < 1_024; index += 9)
  answerSentences.push(sourceSentences[index % sourceSentences.length] ?? "");
const answer = answerSentences.join(" ");

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const model = new MockLanguageModelV3({
  doGenerate: async () => ({
    content: [{ type: "text", text: answer }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  }),
});
const verifier = createVerifier();
const wrapped = wrapLanguageModel({
  model,
  middleware: veracityMiddleware({ verifier, mode: "disclaimer" }),
});
const call = { prompt: "What did the teams ship?", providerOptions: { veracity: { sources } } };

const timed = async (run: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const check = await generateText({ model: wrapped, ...call });
const veracity = check.providerMetadata?.veracity as { passed: boolean } | undefined;
console.log(
  `answer ${answer.length} chars, sources ${sources[0]?.length} chars; the answer verifies: ${veracity?.passed}`,
);

for (let index = 0; index < 20; index++) {
  await generateText({ model, ...call });
  await generateText({ model: wrapped, ...call });
}

const plain: number[] = [];
const withMiddleware: number[] = [];
const added: number[] = [];
const verifyAlone: number[] = [];
const deadline = performance.now() + 15_000;
while (plain.length < 300 && performance.now() < deadline) {
  const unwrappedMs = await timed(() => generateText({ model, ...call }));
  const wrappedMs = await timed(() => generateText({ model: wrapped, ...call }));
  plain.push(unwrappedMs);
  withMiddleware.push(wrappedMs);
  added.push(wrappedMs - unwrappedMs);
  verifyAlone.push(await timed(() => verifier.verify({ text: answer, sources })));
}
await verifier.close();

const row = (name: string, values: readonly number[]) =>
  `${name.padEnd(28)} p50 ${quantile(values, 0.5).toFixed(3)} ms   p90 ${quantile(values, 0.9).toFixed(3)} ms`;
console.log(`${plain.length} pairs`);
console.log(row("unwrapped generateText", plain));
console.log(row("with veracityMiddleware", withMiddleware));
console.log(row("added (paired difference)", added));
console.log(row("verifier.verify alone", verifyAlone));
console.log(
  `middleware plumbing (added p50 - verify p50): ${(quantile(added, 0.5) - quantile(verifyAlone, 0.5)).toFixed(3)} ms`,
);
const addedP50 = quantile(added, 0.5);
console.log(`bar: < 5 ms added at p50 -> ${addedP50 < 5 ? "met" : "NOT met"} (${addedP50.toFixed(3)} ms)`);
