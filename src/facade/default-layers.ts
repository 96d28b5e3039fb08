import { makeGroundingLayer } from "../checks/grounding/index.js";
import { makeNumbersLayer } from "../checks/numbers/index.js";
import type { VerificationLayer } from "../model/layer.js";

/**
 * The offline evidence layers every verifier has without configuration: grounding (claims against the
 * sources) and numbers (every number traced to a source, a recorded calculation or a derivation).
 */
export const defaultEvidenceLayers = (): VerificationLayer[] => [makeGroundingLayer(), makeNumbersLayer()];
