import type { CliIO } from "./command.js";
import { runCli } from "./run-cli.js";

/** What the in-process run may set: the environment (empty by default) and whether stderr is a terminal. */
export interface RunCliOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stderrIsTTY?: boolean;
}

/** Runs the CLI in-process in `cwd` with no standard input and an empty environment; keeps what it printed. */
export const runCliIn = async (argv: string[], cwd: string, options: RunCliOptions = {}) => {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => "",
    isTTY: false,
    ...(options.stderrIsTTY === undefined ? {} : { stderrIsTTY: options.stderrIsTTY }),
    cwd,
    env: options.env ?? {},
  };
  return { code: await runCli(argv, io), stdout, stderr };
};
