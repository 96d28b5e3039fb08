import { createVerifier, type Verifier } from "../../facade/create-verifier.js";

/** The verifier integrations use when none is given: the default offline layers (grounding and numbers). */
export const createOfflineVerifier = (): Verifier => createVerifier();
