import { Effect, Layer } from "effect";
import { LLMService, type LLMServiceShape } from "../llm/llm-service.js";
import type { ClaimFinding } from "../model/claim.js";
import type { LayerResult } from "../model/layer-result.js";
import type { Mitigation, MitigationAction } from "../model/mitigation.js";
import { addDisclaimer, flagUncertain, redact } from "./actions.js";
import { defaultMitigationSettings, type MitigationSettings } from "./choose.js";
import { Mitigator, type MitigatorShape } from "./mitigator.js";
import { decomposeAndRetry, regenerateText } from "./model-actions.js";
import { requestSources } from "./request-sources.js";

/** What to do with a moderate failure (worst score in [0.2, 0.5)); `regenerate` by default. */
export type ModerateAction = Extract<
  MitigationAction,
  "regenerate" | "decompose-and-retry" | "redact" | "flag-uncertain" | "request-sources"
>;

export interface ModelMitigationSettings extends MitigationSettings {
  readonly moderateAction: ModerateAction;
}

export const defaultModelMitigationSettings: ModelMitigationSettings = {
  ...defaultMitigationSettings,
  moderateAction: "regenerate",
};

const describe = (failedLayers: readonly LayerResult[]) => {
  const worst = Math.min(...failedLayers.map((layer) => layer.score));
  return { worst, names: failedLayers.map((layer) => layer.layer).join(", "), label: worst.toFixed(2) };
};

/** The same failing claims flagged inline: where a model-backed action degrades to when it cannot run. */
const degraded = (text: string, claims: readonly ClaimFinding[], reason: string): Mitigation => ({
  action: "flag-uncertain",
  reason,
  originalText: text,
  correctedText: flagUncertain(text, claims),
});

/**
 * Applies one action to a failed text. Actions that need a model (`regenerate`, `decompose-and-retry`)
 * degrade to `flag-uncertain` when there is no model or the model call fails, and the reason says so: the
 * text still fails verification either way, so an outage is never turned into a pass.
 */
export const applyMitigation = (
  llm: LLMServiceShape | undefined,
  action: MitigationAction,
  text: string,
  failedLayers: readonly LayerResult[],
  claims: readonly ClaimFinding[],
  settings: MitigationSettings = defaultMitigationSettings,
): Effect.Effect<Mitigation> => {
  const { names, label } = describe(failedLayers);
  const context = `verification failure in [${names}] (score ${label})`;
  const needsModel = action === "regenerate" || action === "decompose-and-retry";
  if (needsModel && (llm === undefined || llm.textUnavailable !== undefined))
    return Effect.succeed(
      degraded(
        text,
        claims,
        `${context}; ${action} needs a model (${llm?.textUnavailable ?? "none configured"}), so the failing claims are flagged instead`,
      ),
    );
  const onModelFailure = (error: { readonly message: string }) =>
    Effect.succeed(
      degraded(
        text,
        claims,
        `${context}; ${action} failed (${error.message}), so the failing claims are flagged instead`,
      ),
    );
  switch (action) {
    case "regenerate":
      return regenerateText(
        llm!,
        text,
        failedLayers.map((layer) => layer.layer),
        claims,
      ).pipe(
        Effect.map(
          (corrected): Mitigation =>
            corrected === undefined
              ? degraded(
                  text,
                  claims,
                  `${context}; the model returned an empty rewrite, so the failing claims are flagged instead`,
                )
              : {
                  action,
                  reason: `${context}; regenerated with the specific failures`,
                  originalText: text,
                  correctedText: corrected,
                },
        ),
        Effect.catchAll(onModelFailure),
      );
    case "decompose-and-retry":
      return decomposeAndRetry(llm!, text, claims).pipe(
        Effect.map(
          (outcome): Mitigation => ({
            action,
            reason: `${context}; ${outcome.rewritten} failing claims rewritten one by one, ${outcome.removed} removed`,
            originalText: text,
            correctedText: outcome.text,
          }),
        ),
        Effect.catchAll(onModelFailure),
      );
    case "redact": {
      const outcome = redact(text, claims);
      return Effect.succeed({
        action,
        reason: `${context}; removed ${outcome.removed.length} unsupported statements: ${outcome.removed.map((removed) => JSON.stringify(removed)).join(", ")}`,
        originalText: text,
        correctedText: outcome.text,
      });
    }
    case "request-sources":
      return Effect.succeed({
        action,
        reason: `${context}; asking for sources`,
        originalText: text,
        correctedText: requestSources(claims),
      });
    case "flag-uncertain":
      return Effect.succeed({
        action,
        reason: context,
        originalText: text,
        correctedText: flagUncertain(text, claims),
      });
    case "add-disclaimer":
      return Effect.succeed({
        action,
        reason: `marginal ${context}`,
        originalText: text,
        correctedText: addDisclaimer(text, settings.disclaimer),
      });
    case "block-response":
      return Effect.succeed({
        action,
        reason: `critical ${context}`,
        originalText: text,
        correctedText: settings.blockedReply,
      });
  }
};

/**
 * The action by severity (the lowest score of the failed layers): below 0.2 block, below 0.5 the moderate
 * action, else a disclaimer.
 */
export const chooseAction = (
  failedLayers: readonly LayerResult[],
  settings: ModelMitigationSettings,
): MitigationAction => {
  const { worst } = describe(failedLayers);
  if (worst < 0.2) return "block-response";
  if (worst < 0.5) return settings.moderateAction;
  return "add-disclaimer";
};

/** A mitigator that regenerates with the model (or the configured moderate action), degrading without one. */
export const makeModelMitigator = (
  llm: LLMServiceShape | undefined,
  settings: ModelMitigationSettings = defaultModelMitigationSettings,
): MitigatorShape => ({
  mitigate: (text, failedLayers, claims = []) =>
    applyMitigation(llm, chooseAction(failedLayers, settings), text, failedLayers, claims, settings),
});

/** `Mitigator` over the app's `LLMService`. */
export const ModelMitigatorLive = (settings: ModelMitigationSettings = defaultModelMitigationSettings) =>
  Layer.effect(
    Mitigator,
    Effect.map(LLMService, (llm) => makeModelMitigator(llm, settings)),
  );
