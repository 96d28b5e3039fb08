import type { RiskLevel } from "../model/risk.js";

// Each stem takes `\w*`: a pattern such as `\b(diagnos|medic)\b` can never match "diagnosis" or "medication",
// because the stem is followed by more letters and the closing word boundary fails.
const criticalPatterns: readonly RegExp[] = [
  /\b(?:diagnos\w*|prescri\w*|medic\w*|dosages?|doses?|treatments?|symptoms?|overdose\w*|surgery|chemotherapy|side effects?|pregnan\w*|antibiotics?|vaccin\w*)\b/,
  // Medicines by name and amounts of them: "should I take aspirin", "ibuprofen with alcohol", "500 mg".
  /\b(?:aspirin|ibuprofen|acetaminophen|paracetamol|naproxen|opioids?|insulin|warfarin|statins?|antidepressants?|painkillers?)\b/,
  /\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b|\bshould i take\b/,
  /\b(?:legal advice|lawsuits?|liabilit\w*|statutes?|attorney|court order|sue|suing)\b/,
  // "invest", "investing", "investments", "investors", never "investigation".
  /\b(?:invest(?:s|ed|ing|ments?|ors?)?|financial advice|stocks|stock market|portfolios?|securities|retirement savings)\b/,
];

const highPatterns: readonly RegExp[] = [
  /(?:\bsudo\b|\brm -rf\b|\bchmod\b|\bexec\b|\bexecve?\(|\beval\b|\bdrop table\b)/,
  /\b(?:passwords?|secrets?|api.?keys?|credentials?|private keys?|seed phrase)\b/,
];

/**
 * The fast, model-free risk reading: medical, legal and financial content is critical;
 * system commands and secrets are high; short conversational text without numbers is low. Anything else is
 * undecided (undefined) and goes to the model, when one is configured.
 */
export const assessHeuristicRisk = (text: string): RiskLevel | undefined => {
  const lower = text.toLowerCase();
  if (criticalPatterns.some((pattern) => pattern.test(lower))) return "critical";
  if (highPatterns.some((pattern) => pattern.test(lower))) return "high";
  if (text.length < 100 && !/\d/.test(text)) return "low";
  return undefined;
};
