import { makeGroundingLayer } from "../checks/grounding/index.js";
import type { VerificationLayer } from "../verification/layer.js";

/** The offline evidence layers every verifier has without configuration. */
export const defaultEvidenceLayers = (): VerificationLayer[] => [makeGroundingLayer()];
