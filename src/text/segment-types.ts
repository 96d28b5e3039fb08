import type { Span } from "../model/span.js";

/** A sentence of a text, with offsets into it. Code blocks and markup are not sentences. */
export interface Sentence {
  readonly text: string;
  readonly span: Span;
  /** Where the sentence came from: prose, a heading, a list item, a table cell row, a quote. */
  readonly block: "paragraph" | "heading" | "list-item" | "quote" | "table-row";
}
