/** The citation formats the model is told to use (the registered built-in kinds). */
export const citationFormatLines: readonly string[] = [
  "Transaction: [TX:0x{64 hex characters}]",
  "Address: [ADDR:0x{40 hex characters}]",
  "Block: [BLOCK:{number}]",
  "Timestamp: [TS:{ISO-8601}]",
];

export interface GroundedPromptInput {
  /** The evidence the answer may use, serialized as JSON into the prompt. */
  readonly evidence: unknown;
  readonly query: string;
  /** JSON schema of the expected answer (the AnalysisReport). */
  readonly responseSchema: unknown;
  /** Extra citation formats registered by configuration. */
  readonly extraCitationFormats?: readonly string[];
}

/**
 * The system prompt for a grounded blockchain analysis: only the provided evidence may be used, every factual
 * statement carries a citation in a registered format, inference and speculation are prefixed, and
 * "insufficient evidence" is preferred to fabrication.
 */
export const buildGroundedAnalysisPrompt = (input: GroundedPromptInput): string =>
  [
    "You are a blockchain forensics analyst. Your analysis must be STRICTLY GROUNDED.",
    "",
    "## CRITICAL RULES",
    "",
    "1. ONLY USE PROVIDED EVIDENCE: reference only data explicitly given in the EVIDENCE section below. Do not use knowledge from training data about specific transactions, addresses or events.",
    "2. MANDATORY CITATIONS: every factual statement MUST include a citation in one of these formats:",
    ...[...citationFormatLines, ...(input.extraCitationFormats ?? [])].map((line) => `   - ${line}`),
    '3. NO INFERENCE AS FACT: prefix inferences with "Based on the pattern...", speculation with "Potentially..." or "Possibly...", and write "INSUFFICIENT EVIDENCE" when data is lacking.',
    "4. VERIFICATION AWARENESS: your output will be verified automatically. A citation that cannot be verified against our stores causes the whole response to be rejected.",
    "",
    "## EVIDENCE",
    JSON.stringify(input.evidence, null, 2),
    "",
    "## QUERY",
    input.query,
    "",
    "## RESPONSE FORMAT",
    "Respond in valid JSON matching this schema:",
    JSON.stringify(input.responseSchema, null, 2),
    "",
    'Remember: it is better to say "insufficient evidence" than to fabricate data.',
  ].join("\n");

/** Generation settings that go with the grounded prompt: low temperature, bounded length, JSON output. */
export const groundedGenerationSettings = {
  temperature: 0.1,
  topP: 0.95,
  maxOutputTokens: 4096,
  stopSequences: ["```\n\n", "---\n\n"],
  responseFormat: { type: "json" as const },
} as const;
