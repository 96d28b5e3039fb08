import { buildSourceIndex, type Passage } from "../source-index.js";

/** The passages the grounding index reads from `texts`, each text a source of its own, in order. */
export const passagesOf = (...texts: string[]): readonly Passage[] =>
  buildSourceIndex(texts.map((text, index) => ({ index, origin: "source" as const, text }))).passages;
