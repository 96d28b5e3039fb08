import type { EvidenceSource, LayerInput } from "../../../model/layer.js";
import { segmentClaims } from "../../../text/claims.js";

/**
 * A layer input built the way the verification service builds it: claims segmented from the text,
 * evidence = sources in order, then the context. For tests, benchmarks and running a layer alone.
 */
export const layerInputOf = (
  text: string,
  request: {
    readonly sources?: readonly string[];
    readonly context?: string;
    readonly question?: string;
    readonly maxCost?: number;
  } = {},
): LayerInput => {
  const sources: EvidenceSource[] = (request.sources ?? []).map((source, index) => ({
    index,
    origin: "source",
    text: source,
  }));
  const evidence =
    request.context === undefined
      ? sources
      : [...sources, { index: sources.length, origin: "context" as const, text: request.context }];
  return {
    text,
    claims: segmentClaims(text),
    evidence,
    ...(request.context === undefined ? {} : { context: request.context }),
    ...(request.question === undefined ? {} : { question: request.question }),
    ...(request.maxCost === undefined ? {} : { maxCost: request.maxCost }),
  };
};
