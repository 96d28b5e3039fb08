/**
 * A verification result (or answer) as plain JSON with its clock readings set to 0, so results computed in
 * different threads or processes can be compared for their verdicts alone.
 */
export const withoutTimings = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, field) =>
    key === "latencyMs" || key === "totalLatencyMs" || key === "timestamp" ? 0 : field,
  );
