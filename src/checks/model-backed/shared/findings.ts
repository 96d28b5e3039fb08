import type { ClaimFinding, ClaimIssue, ClaimKind, ClaimVerdict, Evidence } from "../../../model/claim.js";
import type { ModelLayerName } from "../../../model/layer-name.js";
import type { Span } from "../../../model/span.js";

export const clamp01 = (value: number): number =>
  Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

export interface FindingInput {
  readonly layer: ModelLayerName;
  readonly text: string;
  readonly span: Span;
  readonly kind: ClaimKind;
  readonly verdict: ClaimVerdict;
  readonly score: number;
  readonly evidence?: readonly Evidence[];
  /** A problem to report; its span is the claim's span. */
  readonly issue?: { readonly code: string; readonly message: string; readonly span?: Span };
}

export const finding = (input: FindingInput): ClaimFinding => {
  const issues: ClaimIssue[] =
    input.issue === undefined
      ? []
      : [
          {
            code: input.issue.code,
            message: input.issue.message,
            span: input.issue.span ?? input.span,
            layer: input.layer,
          },
        ];
  return {
    text: input.text,
    span: input.span,
    kind: input.kind,
    verdict: input.verdict,
    score: clamp01(input.score),
    evidence: input.evidence ?? [],
    issues,
    layers: [input.layer],
  };
};
