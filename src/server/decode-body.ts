import { Either, ParseResult, Schema } from "effect";
import type { Context } from "hono";
import { defaultLargeCallChars } from "../facade/worker-pool/create-worker-pool-verifier.js";
import { VerifierBusyError } from "../facade/worker-pool/errors.js";
import { inputLimits } from "../model/limits.js";
import { type JsonReading, readJsonBytes, readJsonText } from "../text/json-text.js";
import type { ServerEnv } from "./env.js";
import { ApiProblem } from "./middleware/problem/index.js";

/**
 * Bodies of this many bytes or more are read off the server's thread when the app has an `OffThreadJsonReader`
 * (the context's `readJsonOffThread`). On a 2-core machine a 10 MB body cost the server's thread 42-43 ms read
 * there (decoding, parsing and checking it) and 21 ms read by a worker (receiving the body, copying its bytes out
 * and the parsed value back), and the event loop's longest waits fell from 64-69 ms (the release before) to
 * 24-30 ms. The size is the pool's default for a large call, so such a body goes to the large-call worker, where
 * its verification runs too.
 */
export const offThreadFromBytes = defaultLargeCallChars;

/**
 * The body read as JSON: off the thread when it is large and the app can, else here. When every large-call
 * worker has its queue full, the body is read here as it was before there were workers to read it: the server
 * can always do this itself, and refusing a body for a queue of other work would be a new failure. Any other
 * failure of the worker (it crashed, it ran past the deadline) is the request's error: a body that crashed a
 * worker is not read again in the server's thread.
 */
const readBody = async (context: Context): Promise<JsonReading> => {
  const offThread = (context as Context<ServerEnv>).get("readJsonOffThread");
  const declared = Number(context.req.header("content-length"));
  if (offThread === undefined || !(declared >= offThreadFromBytes))
    return readJsonText(await context.req.text(), inputLimits.jsonDepth);
  const bytes = new Uint8Array(await context.req.arrayBuffer());
  try {
    return await offThread(bytes, inputLimits.jsonDepth);
  } catch (error) {
    if (!(error instanceof VerifierBusyError)) throw error;
    return readJsonBytes(bytes, inputLimits.jsonDepth);
  }
};

/**
 * Reads the JSON body and decodes it with `schema`. Malformed JSON, nesting past `inputLimits.jsonDepth`, a
 * string holding a NUL or a lone surrogate, and a body the schema refuses (a text too long, too many sources)
 * are 400 problems that name the field.
 */
export const decodeBody = async <A, I>(context: Context, schema: Schema.Schema<A, I>): Promise<A> => {
  const type = context.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw new ApiProblem(415, "unsupported-media-type", "send the body as application/json");
  const reading = await readBody(context);
  switch (reading.kind) {
    case "too-deep":
      throw new ApiProblem(
        400,
        "too-deep",
        `the body nests objects and arrays more than ${inputLimits.jsonDepth} deep`,
        {},
        "body",
      );
    case "malformed":
      throw new ApiProblem(400, "malformed-json", "the request body is not valid JSON", {}, "body");
    case "unreadable":
      throw new ApiProblem(
        400,
        "invalid-text",
        `${reading.path || "the body"} ${reading.reason}`,
        {},
        reading.path || "body",
      );
  }
  const decoded = Schema.decodeUnknownEither(schema, { onExcessProperty: "error" })(reading.value);
  if (Either.isLeft(decoded)) {
    const first = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0];
    const field = first === undefined || first.path.length === 0 ? "body" : first.path.join(".");
    throw new ApiProblem(
      400,
      "invalid-body",
      ParseResult.TreeFormatter.formatErrorSync(decoded.left),
      {},
      field,
    );
  }
  return decoded.right;
};
