import { Data, JSONSchema, type Schema } from "effect";
import {
  type CalculationRecorder,
  runCalculatorCall,
  type ValidateInput,
  type ValidationResult,
  validateNumbers,
} from "../../checks/numbers/index.js";
import type { Verifier } from "../../facade/create-verifier.js";
import { verifyAs } from "../../facade/verify-as.js";
import type { MemoryGateClient } from "../../memory/index.js";
import { type Principal, sourcedByPrincipal } from "../../memory/tiers/principal-source.js";
import { cleanJsonSchema } from "../../model/clean-json-schema.js";
import { LayerResult } from "../../model/layer-result.js";
import { VerificationResult } from "../../model/result.js";
import {
  CalculateInput,
  CheckGroundingInput,
  IngestMemoryInput,
  SearchMemoryInput,
  ValidateNumbersInput,
  VerifyCitationsInput,
  VerifyInput,
} from "./tool-inputs.js";

/** What the tools run on: a verifier (with the citations layer for `verify_citations`) and a memory gate. */
export interface McpDependencies {
  readonly verifier: Verifier;
  /** Opened on first use by `ingest_memory`/`search_memory`. */
  readonly memory: () => Promise<MemoryGateClient>;
  /**
   * The user the memory tools act for. When set, a call naming another user is refused: an MCP client cannot
   * read or write somebody else's memories by putting their id in the arguments.
   */
  readonly userId?: string;
  /**
   * Who is calling, as authentication says (default `person`). An `agent`'s memory that names a trusted source
   * (`user`, `documentation`...) is judged as the agent's own, so it is reviewed instead of stored on its word;
   * the source it claimed is kept in `metadata.claimedSource`.
   */
  readonly principal?: Principal;
  /**
   * The results of this server's `calculate` calls: evidence for the numbers `verify` and `validate_numbers`
   * check, so an agent that used the tool is not flagged for its numbers.
   */
  readonly calculations?: CalculationRecorder;
  /**
   * `validateNumbers` run elsewhere, such as in a worker pool's thread, so a long text does not hold this one;
   * without it `validate_numbers` runs in this thread.
   */
  readonly validateNumbers?: (input: ValidateInput) => Promise<ValidationResult>;
  /**
   * Told of every tool call before it runs, `calculate` included: a warm-up under way in this thread then stops,
   * so an agent's calls do not share the thread with made-up checks.
   */
  readonly toolCalled?: () => void;
}

/** The calculator could not evaluate the expression (syntax, division by zero, a limit): a tool error. */
export class McpCalculationError extends Data.TaggedError("CALCULATION_FAILED")<{
  readonly message: string;
}> {}

/** The recorded calculator results as one evidence text, "calculate: expression = result" a line. */
const calculatorSource = (dependencies: McpDependencies): string[] => {
  const recorded = dependencies.calculations?.recorded ?? [];
  return recorded.length === 0
    ? []
    : [recorded.map((call) => `calculate: ${call.expression} = ${call.result}`).join("\n")];
};

/** A memory tool asked to act for a user this server does not act for, or for nobody. */
export class McpUserError extends Data.TaggedError("FORBIDDEN_USER")<{ readonly message: string }> {}

const actingUser = (requested: string | undefined, dependencies: McpDependencies): string => {
  const bound = dependencies.userId;
  if (bound !== undefined && requested !== undefined && requested !== bound)
    throw new McpUserError({ message: `this server acts for user "${bound}" only` });
  const user = bound ?? requested;
  if (user === undefined)
    throw new McpUserError({ message: "no user: pass userId, or start the server for one user (--user)" });
  return user;
};

export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly input: Schema.Schema.AnyNoContext;
  /** JSON Schema of a successful answer's structured content (errors are `{ error: { code, message } }`). */
  readonly output: object;
  readonly run: (input: never, dependencies: McpDependencies) => Promise<unknown>;
}

const defineTool = <A, I>(tool: {
  name: string;
  description: string;
  input: Schema.Schema<A, I, never>;
  output: object;
  run: (input: A, dependencies: McpDependencies) => Promise<unknown>;
}): McpTool => tool as unknown as McpTool;

/** Every number traced: none orphaned, none suspicious, no wrong inline calculation, none left unchecked. */
const numbersPassed = (result: ValidationResult): boolean =>
  result.orphanNumbers.length === 0 &&
  result.suspicious.length === 0 &&
  result.skipped === 0 &&
  result.inlineCalculations.every((calculation) => calculation.correct);

const evidenceOf = (sources: readonly string[] = []) =>
  sources.map((text, index) => ({ index, origin: "source" as const, text }));

/** An object with these fields, every one required; other fields may follow. */
const objectWith = (properties: Record<string, object>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
});

/** Nested objects of an output may carry fields added after this release, so they are not closed. */
const openObjects = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(openObjects);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "additionalProperties" && value === false))
      .map(([key, value]) => [key, openObjects(value)]),
  );
};

/** A result Schema as a tool's output schema: cleaned, and open to fields added later. */
const outputOf = (schema: Schema.Schema.AnyNoContext): object =>
  openObjects(cleanJsonSchema(JSONSchema.make(schema))) as object;

/** The tools `veracity mcp` exposes, in the order they are listed. */
export const mcpTools: readonly McpTool[] = [
  defineTool({
    name: "verify",
    description:
      "Verify a text against sources with every offline layer that can run (grounding, numbers, citations). " +
      "Returns the VerificationResult: passed, confidence, per-claim verdicts and reasons.",
    input: VerifyInput,
    output: outputOf(VerificationResult),
    run: ({ sources, ...rest }, dependencies) => {
      const all = [...(sources ?? []), ...calculatorSource(dependencies)];
      const request = { ...rest, ...(all.length === 0 ? {} : { sources: all }) };
      // A server bound to a user (a key's, or --user) verifies on that user's behalf: their stored facts only.
      return dependencies.userId === undefined
        ? dependencies.verifier.verify(request)
        : verifyAs(dependencies.verifier, dependencies.userId, request);
    },
  }),
  defineTool({
    name: "check_grounding",
    description:
      "Check each claim of a text against the sources (offline grounding layer). Returns a LayerResult.",
    input: CheckGroundingInput,
    output: outputOf(LayerResult),
    run: ({ text, sources, context }, { verifier }) => verifier.runLayer("grounding", text, context, sources),
  }),
  defineTool({
    name: "validate_numbers",
    description:
      "Trace every number of a text to the sources or to recorded calculator results; reports numbers that " +
      "appear nowhere, near misses and wrong calculations. `passed` is true only when every number is traced.",
    input: ValidateNumbersInput,
    output: objectWith({
      passed: { type: "boolean" },
      numbers: { type: "array" },
      orphanNumbers: { type: "array" },
    }),
    run: async ({ text, sources, calculations, question }, dependencies) => {
      const all = [...(calculations ?? []), ...(dependencies.calculations?.recorded ?? [])];
      const input: ValidateInput = {
        text,
        evidence: evidenceOf(sources),
        ...(all.length === 0 ? {} : { calculations: all }),
        ...(question === undefined ? {} : { question }),
      };
      const result = await (dependencies.validateNumbers?.(input) ?? validateNumbers(input));
      return { passed: numbersPassed(result), ...result };
    },
  }),
  defineTool({
    name: "calculate",
    description:
      "Evaluate an arithmetic expression exactly (decimal arithmetic). Use it for every derived number. " +
      "Supports + - * / % ^ ( ) and abs, round(x, n), floor, ceil, min, max, sum, avg, sqrt, log, exp, pow.",
    input: CalculateInput,
    output: objectWith({ expression: { type: "string" }, result: { type: "string" } }),
    run: async (input, dependencies) => {
      const output = runCalculatorCall(input, dependencies.calculations);
      if ("error" in output && output.error !== undefined)
        throw new McpCalculationError({ message: `${output.error} (${output.reason})` });
      return output;
    },
  }),
  defineTool({
    name: "verify_citations",
    description:
      "Extract the citations of a text (transactions, blocks, addresses, commits, ADRs, URLs, issues) and " +
      "check each against the configured evidence. Returns a LayerResult.",
    input: VerifyCitationsInput,
    output: outputOf(LayerResult),
    run: ({ text, sources }, { verifier }) => verifier.runLayer("citations", text, undefined, sources),
  }),
  defineTool({
    name: "ingest_memory",
    description:
      "Submit a claim to the memory gate: it is stored, queued for review or blocked depending on its " +
      "evidence. Returns the tier, the reason and the checks that passed and failed.",
    input: IngestMemoryInput,
    output: objectWith({ status: { enum: ["stored", "queued", "blocked"] }, result: { type: "object" } }),
    run: async (input, dependencies) => {
      const userId = actingUser(input.userId, dependencies);
      // The trust tier follows the caller, never the arguments: an agent cannot label its claim as the user's.
      const sourced = sourcedByPrincipal(dependencies.principal ?? "person", input);
      return (await dependencies.memory()).ingest({ ...sourced, userId });
    },
  }),
  defineTool({
    name: "search_memory",
    description: "Search a user's stored (approved) memories by text.",
    input: SearchMemoryInput,
    output: objectWith({ hits: { type: "array" } }),
    run: async ({ userId, query, limit }, dependencies) => ({
      hits: await (await dependencies.memory()).search(actingUser(userId, dependencies), query, limit),
    }),
  }),
];

/** The JSON Schema of a tool's input, generated from its Effect Schema. */
export const inputJsonSchema = (tool: McpTool): { type: "object"; [key: string]: unknown } => ({
  ...cleanJsonSchema(JSONSchema.make(tool.input)),
  type: "object",
});

/** The JSON Schema of a tool's successful structured content. */
export const outputJsonSchema = (tool: McpTool): { type: "object"; [key: string]: unknown } => ({
  ...tool.output,
  type: "object",
});
