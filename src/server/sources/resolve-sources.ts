import { inputLimits } from "../../model/limits.js";
import { ApiProblem } from "../middleware/problem/index.js";
import { runEffect } from "../run-effect.js";
import type { SourceStore } from "./source-store.js";

/**
 * A request's `sourceRefs` replaced by the texts they name, appended to its `sources` (in the order given).
 * A hash the caller has not stored is a 404 `source-not-found` naming it (upload it with `POST /v1/sources`,
 * or send the text); more sources than one request may hold is a 400 on `sources`. Without `sourceRefs` the
 * request is returned as it is.
 */
export const resolveSourceRefs = async <
  R extends {
    readonly sources?: readonly string[] | undefined;
    readonly sourceRefs?: readonly string[] | undefined;
    readonly context?: string | undefined;
  },
>(
  request: R,
  userId: string,
  store: SourceStore | undefined,
): Promise<Omit<R, "sourceRefs">> => {
  const { sourceRefs, ...rest } = request;
  if (sourceRefs === undefined || sourceRefs.length === 0) return rest;
  if (store === undefined)
    throw new ApiProblem(503, "not-configured", "this server keeps no sources: send the texts in `sources`");
  const given = request.sources ?? [];
  if (given.length + sourceRefs.length > inputLimits.sources)
    throw new ApiProblem(
      400,
      "too-many-sources",
      `a request holds at most ${inputLimits.sources} sources, given and referred to together`,
      {},
      "sources",
    );
  const found = await runEffect(store.get(userId, sourceRefs));
  const missing = sourceRefs.filter((hash) => !found.has(hash));
  if (missing.length > 0)
    throw new ApiProblem(
      404,
      "source-not-found",
      `no stored source with hash ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}: upload it with POST /v1/sources or send its text in \`sources\``,
      {},
      "sourceRefs",
    );
  const sources = [...given, ...sourceRefs.map((hash) => found.get(hash) as string)];
  // Sent texts are bounded by the body limit; named ones are not, so the evidence limit is checked here.
  const chars = sources.reduce((sum, text) => sum + text.length, 0) + (request.context?.length ?? 0);
  if (chars > inputLimits.evidenceChars)
    throw new ApiProblem(
      400,
      "evidence-too-large",
      `the sources and the context hold ${chars} characters together; a request may hold ${inputLimits.evidenceChars}`,
      {},
      "sourceRefs",
    );
  return { ...rest, sources } as Omit<R, "sourceRefs">;
};
