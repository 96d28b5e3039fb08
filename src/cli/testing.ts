import type { CliIO } from "./command.js";
import { runCli } from "./run-cli.js";

/** What an in-process run may set: standard input, the environment (empty by default), stderr a terminal. */
export interface RunCliOptions {
  readonly stdin?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stderrIsTTY?: boolean;
}

/** An in-memory `CliIO` and what the command printed to it, piece by piece. */
export interface CapturedIO {
  readonly io: CliIO;
  readonly out: string[];
  readonly err: string[];
}

/**
 * A `CliIO` for running a command in-process in `cwd`: no terminal, `stdin` as its standard input (empty by
 * default), an empty environment unless given; keeps what it prints.
 */
export const capturingIO = (cwd: string, options: RunCliOptions = {}): CapturedIO => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (text) => {
      out.push(text);
    },
    stderr: (text) => {
      err.push(text);
    },
    readStdin: async () => options.stdin ?? "",
    isTTY: false,
    ...(options.stderrIsTTY === undefined ? {} : { stderrIsTTY: options.stderrIsTTY }),
    cwd,
    env: options.env ?? {},
  };
  return { io, out, err };
};

/** Runs the CLI in-process in `cwd` (see `capturingIO`); its exit code and what it printed. */
export const runCliIn = async (argv: string[], cwd: string, options: RunCliOptions = {}) => {
  const { io, out, err } = capturingIO(cwd, options);
  const code = await runCli(argv, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
};
