import type { FactualMemoryShape } from "../checks/model-backed/factual-memory.js";

/**
 * One verifier configuration, whichever surface it comes from: the CLI's flags (`check`, `eval`, `serve`,
 * `mcp`), the server's options, MCP's options, or the integrations' defaults. The same configuration builds
 * the same verifier everywhere; settings files and `VERACITY_*` variables are read here and nowhere else.
 */
export interface VerifierFlags {
  /** The directory relative paths below are resolved against (default: the process's working directory). */
  readonly cwd?: string;
  /**
   * `--strict`: turns strict mode on whatever the settings say, so a skipped layer of the profile, or a text
   * nothing could check, fails the verification.
   */
  readonly strict?: boolean;
  /** `--evidence <db>`: an evidence store for the citations layer (PGlite directory or postgres:// URL). */
  readonly evidence?: string;
  /** `--repo <dir>`: a repository whose commits and ADRs cited in the text are checked. */
  readonly repository?: string;
  /** `--model <spec>`: a model for the model-backed layers; `VERACITY_MODEL` otherwise. */
  readonly model?: string;
  /** `--calibration <file>`: Platt models per layer. */
  readonly calibration?: string;
  /**
   * `--config <file>` (or `VERACITY_CONFIG`): the configuration file, YAML or JSON (`VeracityConfigFile`). Its
   * verification settings apply, and its `model`, `calibration`, `evidence` and `repository` where no flag
   * (nor, for the model, `VERACITY_MODEL`) sets them; its `server:` section is for `veracity serve`.
   */
  readonly config?: string;
  /** The fact memory fact decomposition searches (`--memory-db` and `--user`); empty when absent. */
  readonly factMemory?: FactualMemoryShape;
}
