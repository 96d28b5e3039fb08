import { Context, Effect, Layer } from "effect";
import type { ClaimFinding } from "../model/claim.js";
import type { VerificationError } from "../model/errors.js";
import type { LayerResult } from "../model/layer-result.js";
import type { Mitigation } from "../model/mitigation.js";
import { chooseOfflineMitigation, defaultMitigationSettings, type MitigationSettings } from "./choose.js";

export interface MitigatorShape {
  readonly mitigate: (
    text: string,
    failedLayers: readonly LayerResult[],
    claims?: readonly ClaimFinding[],
  ) => Effect.Effect<Mitigation, VerificationError>;
}

export class Mitigator extends Context.Tag("veracity/Mitigator")<Mitigator, MitigatorShape>() {}

export const makeOfflineMitigator = (
  settings: MitigationSettings = defaultMitigationSettings,
): MitigatorShape => ({
  mitigate: (text, failedLayers, claims = []) =>
    Effect.sync(() => chooseOfflineMitigation(text, failedLayers, claims, settings)),
});

export const OfflineMitigatorLive = (settings: MitigationSettings = defaultMitigationSettings) =>
  Layer.succeed(Mitigator, makeOfflineMitigator(settings));
