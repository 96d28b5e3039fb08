import type { Span } from "../../model/span.js";
import { escapeHtml } from "../../report/escape-html.js";
import { mergeSpans } from "../metrics/spans.js";

/**
 * The text as HTML with flagged spans in `<mark class="flagged">` and gold spans in `<mark class="gold">`
 * (both: `<mark class="flagged gold">`). Spans are clipped to the text; at most `maxChars` are shown.
 */
export const highlightSpans = (
  text: string,
  flagged: readonly Span[],
  gold: readonly Span[],
  maxChars = 2000,
): string => {
  const shown = text.length > maxChars ? text.slice(0, maxChars) : text;
  const clip = (spans: readonly Span[]) =>
    mergeSpans(
      spans.map((span) => ({
        start: Math.min(span.start, shown.length),
        end: Math.min(span.end, shown.length),
      })),
    );
  const flaggedSpans = clip(flagged);
  const goldSpans = clip(gold);
  const cuts = new Set<number>([0, shown.length]);
  for (const span of [...flaggedSpans, ...goldSpans]) {
    cuts.add(span.start);
    cuts.add(span.end);
  }
  const boundaries = [...cuts].sort((a, b) => a - b);
  const inside = (spans: readonly Span[], at: number) =>
    spans.some((span) => span.start <= at && at < span.end);
  let html = "";
  for (let index = 0; index + 1 < boundaries.length; index += 1) {
    const start = boundaries[index]!;
    const piece = escapeHtml(shown.slice(start, boundaries[index + 1]!));
    const classes = [
      inside(flaggedSpans, start) ? "flagged" : "",
      inside(goldSpans, start) ? "gold" : "",
    ].filter(Boolean);
    html += classes.length === 0 ? piece : `<mark class="${classes.join(" ")}">${piece}</mark>`;
  }
  return shown.length < text.length ? `${html}&hellip;` : html;
};
