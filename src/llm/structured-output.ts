import { Either, JSONSchema, ParseResult, Schema } from "effect";

/**
 * The body of the first ``` fence (without a `json` tag), found with `indexOf`: a regex with a lazy body
 * rescans the rest of the answer from every backtick when the fence is never closed.
 */
const fencedBody = (text: string): string | undefined => {
  const open = text.indexOf("```");
  if (open === -1) return undefined;
  const close = text.indexOf("```", open + 3);
  if (close === -1) return undefined;
  const body = text.slice(open + 3, close);
  return (/^json/i.test(body) ? body.slice(4) : body).trim();
};

/**
 * The JSON value in a model answer: the whole answer, or the body of a ```json fence, or the span from
 * the first `{`/`[` to the last `}`/`]` (models like to add a sentence around their JSON).
 */
export const extractJson = (text: string): Either.Either<unknown, string> => {
  const candidates: string[] = [text.trim()];
  const fence = fencedBody(text);
  if (fence !== undefined) candidates.push(fence);
  const first = text.search(/[{[]/);
  const last = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
  if (first !== -1 && last > first) candidates.push(text.slice(first, last + 1));
  for (const candidate of candidates) {
    try {
      return Either.right(JSON.parse(candidate) as unknown);
    } catch {
      // try the next candidate
    }
  }
  return Either.left("the answer is not valid JSON");
};

/** Decodes a model answer against a schema; the left side explains what is wrong, for the repair prompt. */
export const decodeAnswer = <A, I>(schema: Schema.Schema<A, I>, text: string): Either.Either<A, string> =>
  Either.flatMap(extractJson(text), (json) =>
    Either.mapLeft(Schema.decodeUnknownEither(schema, { errors: "all" })(json), (error) =>
      ParseResult.TreeFormatter.formatErrorSync(error),
    ),
  );

/** The JSON Schema sent to the model (in the prompt and, where supported, as the provider's response format). */
export const jsonSchemaOf = <A, I>(schema: Schema.Schema<A, I>): object => {
  const { $schema: _ignored, ...rest } = JSONSchema.make(schema) as unknown as Record<string, unknown>;
  return rest;
};

export const structuredInstruction = (jsonSchema: object): string =>
  "Answer with a single JSON value and nothing else: no prose, no code fence. " +
  `It must match this JSON Schema:\n${JSON.stringify(jsonSchema)}`;

export const repairInstruction = (issue: string, jsonSchema: object): string =>
  `Your previous answer could not be used: ${issue.slice(0, 1500)}\n` +
  "Reply again with only the corrected JSON value, matching this JSON Schema:\n" +
  JSON.stringify(jsonSchema);
