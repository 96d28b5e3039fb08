/**
 * A usage or set-up problem: a flag, a configuration file or an environment variable that cannot be used as
 * given. The CLI prints the message and exits 2; the server and MCP refuse to start with it.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
