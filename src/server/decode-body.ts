import { Either, ParseResult, Schema } from "effect";
import type { Context } from "hono";
import { ApiProblem } from "./middleware/problem/index.js";

/** Reads the JSON body and decodes it with `schema`; malformed JSON and invalid bodies are 400 problems. */
export const decodeBody = async <A, I>(context: Context, schema: Schema.Schema<A, I>): Promise<A> => {
  const type = context.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiProblem(415, "unsupported-media-type", "send the body as application/json");
  let raw: unknown;
  try {
    raw = JSON.parse(await context.req.text());
  } catch {
    throw new ApiProblem(400, "malformed-json", "the request body is not valid JSON");
  }
  const decoded = Schema.decodeUnknownEither(schema, { onExcessProperty: "error" })(raw);
  if (Either.isLeft(decoded))
    throw new ApiProblem(400, "invalid-body", ParseResult.TreeFormatter.formatErrorSync(decoded.left));
  return decoded.right;
};
