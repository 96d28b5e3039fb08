/** What a CLI command may touch: injected so commands are tested without a child process. */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads all of standard input (for `-` arguments). */
  readonly readStdin: () => Promise<string>;
  readonly isTTY: boolean;
  /** Whether stderr is a terminal: progress lines are shown only then. */
  readonly stderrIsTTY?: boolean;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes shared by every command. */
/** 0: passed (or a warning); 1: findings; 2: usage or input error; 3: nothing could be checked (unverified). */
export const ExitCode = { ok: 0, findings: 1, usage: 2, unverified: 3 } as const;

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Command lines shown under "Examples:" by `--help`. */
  readonly examples?: readonly string[];
  /** Returns the process exit code; never calls process.exit itself. */
  readonly run: (argv: readonly string[], io: CliIO) => Promise<number>;
}

export { UsageError } from "../model/usage-error.js";
