export { addDisclaimer, defaultBlockedReply, defaultDisclaimer, flagUncertain, redact } from "./actions.js";
export { chooseOfflineMitigation, defaultMitigationSettings, type MitigationSettings } from "./choose.js";
export { describeFailures, failingClaims } from "./failure-report.js";
export { Mitigator, type MitigatorShape, makeOfflineMitigator, OfflineMitigatorLive } from "./mitigator.js";
export {
  applyMitigation,
  chooseAction,
  defaultModelMitigationSettings,
  type ModelMitigationSettings,
  ModelMitigatorLive,
  type ModerateAction,
  makeModelMitigator,
} from "./model-mitigator.js";
export { requestSources } from "./request-sources.js";
