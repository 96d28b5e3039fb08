import type { Layer } from "effect";
import type { LLMCoreOptions } from "../llm/core.js";
import { llmServiceLayer } from "../llm/live.js";
import type { LLMService } from "../llm/llm-service.js";
import type { ChatMessage } from "../llm/messages.js";
import type { GenerateRequest, ModelPort } from "../llm/model-port.js";
import { ProviderFailure } from "../llm/model-port.js";
import { bagOfWordsEmbedding } from "./bag-of-words-embedding.js";

/** One call the scripted model received. */
export interface RecordedGenerateCall {
  readonly kind: "generate";
  readonly messages: readonly ChatMessage[];
  readonly jsonSchema?: object;
  readonly schemaName?: string;
  readonly purpose?: string;
  readonly temperature?: number;
  /** The last user message, for routing and assertions. */
  readonly prompt: string;
}

export interface RecordedEmbedCall {
  readonly kind: "embed";
  readonly values: readonly string[];
}

export type RecordedCall = RecordedGenerateCall | RecordedEmbedCall;

/** A scripted outage: the call fails as the provider would (429/5xx/network are retryable). */
export class ScriptedFailure {
  constructor(
    readonly failure: {
      readonly status?: number;
      readonly retryAfterMs?: number;
      readonly network?: boolean;
      readonly message?: string;
    },
  ) {}
}

/** A call that never answers until it is aborted (a stalled provider). */
export class ScriptedStall {}

/** A string is sent as is; any other value is sent as its JSON. */
export type ScriptedAnswer = string | ScriptedFailure | ScriptedStall | object;

export type Script =
  | { readonly fixed: ScriptedAnswer }
  | { readonly sequence: readonly ScriptedAnswer[] }
  | { readonly respond: (call: RecordedGenerateCall, callIndex: number) => ScriptedAnswer };

export interface ScriptedModelOptions {
  readonly script: Script;
  readonly model?: string;
  /** Vector of a text; defaults to a deterministic bag-of-words embedding. `false` disables embeddings. */
  readonly embed?: ((text: string) => readonly number[]) | false;
  /** Fails every embedding call with this outage. */
  readonly embedFailure?: ScriptedFailure;
}

export interface ScriptedModel {
  readonly port: ModelPort;
  /** Every call, in the order received. */
  readonly calls: RecordedCall[];
  readonly generateCalls: () => RecordedGenerateCall[];
  readonly embedCalls: () => RecordedEmbedCall[];
}

const toFailure = ({ failure }: ScriptedFailure): ProviderFailure => {
  const { status, retryAfterMs, network } = failure;
  const retryable = status === 429 || (status !== undefined && status >= 500) || network === true;
  return new ProviderFailure(failure.message ?? `scripted failure ${status ?? "network"}`, {
    retryable,
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(network === undefined ? {} : { network }),
  });
};

const stall = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    const abort = () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
  });

const record = (request: GenerateRequest): RecordedGenerateCall => ({
  kind: "generate",
  messages: request.messages,
  prompt: [...request.messages].reverse().find((message) => message.role === "user")?.content ?? "",
  ...(request.jsonSchema === undefined ? {} : { jsonSchema: request.jsonSchema }),
  ...(request.schemaName === undefined ? {} : { schemaName: request.schemaName }),
  ...(request.purpose === undefined ? {} : { purpose: request.purpose }),
  ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
});

/**
 * A model whose answers are given by the test: one fixed answer, a list served in order, or a function of
 * the call. Records every call so tests assert on what was sent (prompts, schemas), not only on verdicts.
 */
export const makeScriptedModel = (options: ScriptedModelOptions): ScriptedModel => {
  const calls: RecordedCall[] = [];
  let generateIndex = 0;
  const answerFor = (call: RecordedGenerateCall): ScriptedAnswer | undefined => {
    const index = generateIndex++;
    const { script } = options;
    if ("fixed" in script) return script.fixed;
    if ("sequence" in script) return script.sequence[index];
    return script.respond(call, index);
  };
  const generate: ModelPort["generate"] = async (request, signal) => {
    const call = record(request);
    calls.push(call);
    const answer = answerFor(call);
    if (answer === undefined) {
      throw new ProviderFailure(`the scripted model has no answer for call ${generateIndex}`, {
        retryable: false,
      });
    }
    if (answer instanceof ScriptedFailure) throw toFailure(answer);
    if (answer instanceof ScriptedStall) return stall(signal);
    const text = typeof answer === "string" ? answer : JSON.stringify(answer);
    return { text, inputTokens: 10, outputTokens: 10 };
  };
  const embedder = options.embed === undefined ? bagOfWordsEmbedding : options.embed;
  const port: ModelPort = {
    model: options.model ?? "scripted:model",
    generate,
    ...(embedder === false
      ? {}
      : {
          embeddingModel: "scripted:embedding",
          embed: async (values: readonly string[]) => {
            calls.push({ kind: "embed", values });
            if (options.embedFailure !== undefined) throw toFailure(options.embedFailure);
            return { vectors: values.map((value) => embedder(value)), tokens: values.length };
          },
        }),
  };
  return {
    port,
    calls,
    generateCalls: () => calls.filter((call): call is RecordedGenerateCall => call.kind === "generate"),
    embedCalls: () => calls.filter((call): call is RecordedEmbedCall => call.kind === "embed"),
  };
};

/** A scripted model and an `LLMService` Layer over it (the real core: decoding, repair, retries, cache). */
export const scriptedLLM = (
  options: ScriptedModelOptions,
  core: LLMCoreOptions = {},
): { readonly model: ScriptedModel; readonly layer: Layer.Layer<LLMService> } => {
  const model = makeScriptedModel(options);
  return { model, layer: llmServiceLayer(model.port, core) };
};
