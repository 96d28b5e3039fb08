import type { CliIO } from "./command.js";
import { runCli } from "./run-cli.js";

/** Runs the CLI in-process in `cwd` with no standard input and an empty environment; keeps what it printed. */
export const runCliIn = async (argv: string[], cwd: string) => {
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
    cwd,
    env: {},
  };
  return { code: await runCli(argv, io), stdout, stderr };
};
