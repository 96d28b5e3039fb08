/**
 * `veracity/verification`: the verifier as Effect services, for applications built on Effect. The service
 * runs the layers a request's risk calls for, merges their findings per claim and decides the answer's
 * verdict; the app layer wires it from settings, layers, calibration and a risk model.
 */
export { makeVerificationAppLayer, type VerificationAppOptions } from "./app-layer.js";
export { defaultSettings, VerificationConfig, type VerificationSettings } from "./config.js";
export { resolveSettings, settingsFromEnv, settingsFromFile } from "./config-sources.js";
export { type Decision, decide } from "./decision.js";
export { EventBus, type EventBusShape, type EventHandler, type VerificationEvent } from "./events.js";
export { LayerRegistry, makeLayerRegistry } from "./registry.js";
export { RiskAssessor, RiskModel, type RiskModelShape } from "./risk-assessor.js";
export { assessHeuristicRisk } from "./risk-heuristics.js";
export { VerificationService, type VerificationServiceShape } from "./service.js";
