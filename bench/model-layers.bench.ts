/**
 * Model-backed layers per risk level, through the real AI SDK adapter (openai:gpt-4o-mini) against the
 * local provider server on 127.0.0.1, which adds a fixed latency to every call. Verifies a 5-claim text
 * (2 sources and a context) at each risk level through the verification service (risk override, so no risk
 * call; default settings: layer concurrency 3), and prints the median wall time, the model calls per layer
 * and the heap growth. Bounded: BENCH_ITERATIONS runs per level (default 5).
 *
 *   node --expose-gc --import tsx bench/model-layers.bench.ts
 */
import { Effect, Layer } from "effect";
import { EmptyFactualMemory } from "../src/checks/model-backed/factual-memory.js";
import { makeModelLayers } from "../src/checks/model-backed/index.js";
import { layerInputOf } from "../src/checks/model-backed/shared/layer-input.js";
import { LLMServiceFromConfig } from "../src/llm/live.js";
import { LLMService } from "../src/llm/llm-service.js";
import { type RiskLevel, RiskProfiles, riskLevels } from "../src/model/risk.js";
import { bagOfWordsEmbedding } from "../src/testing/bag-of-words-embedding.js";
import { type RecordedRequest, startProviderServer } from "../src/testing/provider-server.js";
import { openAIChatCompletion, openAIEmbeddings } from "../src/testing/recordings.js";
import { makeVerificationAppLayer } from "../src/verification/app-layer.js";
import { VerificationService } from "../src/verification/service.js";

const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 300);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 5);
const llmConcurrency = Number(process.env.BENCH_LLM_CONCURRENCY ?? 8);

const text =
  "The Eiffel Tower is in Paris. It was completed in 1889. It is 330 metres tall. " +
  "Gustave Eiffel's company designed and built it. It was the tallest man-made structure until 1930.";
const sources = [
  "The Eiffel Tower in Paris was completed in 1889 by the company of Gustave Eiffel; it is 330 metres tall.",
  "Completed in 1889, the tower was the tallest man-made structure in the world until 1930.",
];
const context = "Notes on the Eiffel Tower, a wrought-iron lattice tower in Paris completed in 1889.";

/** Plausible answers for each layer's structured request, keyed by the JSON schema name. */
const answer = (request: RecordedRequest): object | string => {
  const body = request.body as {
    messages: { role: string; content: string }[];
    response_format?: { json_schema?: { name?: string } };
  };
  const prompt = body.messages.at(-1)?.content ?? "";
  const numbered = [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((match) => ({
    index: Number(match[1]),
    text: match[2] ?? "",
  }));
  switch (body.response_format?.json_schema?.name) {
    case "statements":
      return { answers: numbered.map(({ index, text }) => ({ claim: index, statement: text })) };
    case "atomic_facts":
      return { facts: numbered.map(({ index, text }) => ({ claim: index, fact: text, type: "factual" })) };
    case "fact_checks":
      return {
        verdicts: numbered.map(({ index }) => ({ fact: index, verdict: "supported", reason: "known" })),
      };
    case "source_verdict":
      return {
        claims: numbered.map(({ index }) => ({
          claim: index,
          relation: "supports",
          confidence: 0.9,
          quote: "",
        })),
      };
    case "consistency_check":
      return {
        claims: numbered.map(({ index }) => ({
          claim: index,
          agrees: true,
          confidence: 0.9,
          reasoning: "ok",
        })),
      };
    case "nli":
      return {
        claims: numbered.map(({ index }) => ({
          claim: index,
          relationship: "entailment",
          confidence: 0.9,
          explanation: "ok",
        })),
      };
    default:
      return "unexpected request";
  }
};

const server = await startProviderServer({
  latencyMs,
  respond: (request) =>
    request.route === "openai.embeddings"
      ? openAIEmbeddings(((request.body as { input: string[] }).input ?? []).map(bagOfWordsEmbedding))
      : openAIChatCompletion(JSON.stringify(answer(request))),
});

const env = {
  VERACITY_MODEL: "openai:gpt-4o-mini",
  VERACITY_EMBEDDING_MODEL: "openai:text-embedding-3-small",
  OPENAI_API_KEY: "bench",
  OPENAI_BASE_URL: server.openAIBaseUrl,
};

const input = layerInputOf(text, { sources, context });
if (input.claims.length !== 5) throw new Error(`expected 5 claims, segmented ${input.claims.length}`);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * One cold request through the verification service (risk override, default settings: layer concurrency 3)
 * with a fresh LLM service (empty cache) and the five model layers registered.
 */
const runLevel = (level: RiskLevel) => {
  const dependencies = Layer.merge(
    LLMServiceFromConfig(env, {}, { maxConcurrency: llmConcurrency }),
    EmptyFactualMemory,
  );
  const app = Layer.unwrapEffect(
    Effect.map(makeModelLayers(), (layers) => makeVerificationAppLayer({ layers: Object.values(layers) })),
  );
  return Effect.gen(function* () {
    const service = yield* VerificationService;
    const llm = yield* LLMService;
    const started = performance.now();
    const result = yield* service.verify({ text, sources, context, riskOverride: level });
    const wallMs = performance.now() - started;
    const usage = yield* llm.usage;
    const skipped = result.skippedLayers.map((layer) => `${layer.layer}(skipped)`);
    return {
      wallMs,
      usage,
      passed: [...result.layersRun.map((layer) => `${layer.layer}:${layer.passed}`), ...skipped],
    };
  }).pipe(Effect.provide(Layer.merge(app, dependencies).pipe(Layer.provide(dependencies))));
};

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let heapPeak = heapBefore;

console.log(
  `model-layers bench: ${latencyMs} ms added per call, ${iterations} runs per level, LLM concurrency ${llmConcurrency}, ` +
    `layer concurrency 3, Node ${process.version}, ${(await import("node:os")).cpus().length} CPUs`,
);
for (const level of riskLevels) {
  const walls: number[] = [];
  let last: Effect.Effect.Success<ReturnType<typeof runLevel>> | undefined;
  if (RiskProfiles[level].layersToRun.length === 0) continue;
  for (let i = 0; i < iterations; i++) {
    last = await Effect.runPromise(runLevel(level));
    walls.push(last.wallMs);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  console.log(
    `${level.padEnd(8)} median ${(median(walls) / 1000).toFixed(3)} s  (min ${(Math.min(...walls) / 1000).toFixed(3)}, ` +
      `max ${(Math.max(...walls) / 1000).toFixed(3)})  calls ${last?.usage.calls}  per layer ${JSON.stringify(last?.usage.byPurpose)}  ` +
      `verdicts ${last?.passed.join(" ")}`,
  );
}
gc?.();
const heapAfter = process.memoryUsage().heapUsed;
console.log(
  `heap: before ${(heapBefore / 2 ** 20).toFixed(1)} MB, peak ${(heapPeak / 2 ** 20).toFixed(1)} MB ` +
    `(+${((heapPeak - heapBefore) / 2 ** 20).toFixed(1)} MB), after gc ${(heapAfter / 2 ** 20).toFixed(1)} MB ` +
    `(+${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MB)${gc === undefined ? " [run with --expose-gc for stable figures]" : ""}`,
);
await server.close();
