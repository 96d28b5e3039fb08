import { type CliCommand, type CliIO, ExitCode, UsageError } from "./command.js";
import { checkCommand } from "./commands/check.js";
import { commands as registeredCommands } from "./commands/index.js";

const allCommands = (): readonly CliCommand[] => [checkCommand, ...registeredCommands];

const help = (): string => {
  const rows = allCommands().map((command) => `  ${command.name.padEnd(10)} ${command.summary}`);
  return `veracity: catch hallucinations in LLM output before they reach a user or an agent's memory

Usage: veracity <command> [options]   (veracity <command> --help for details)

Commands:
${rows.join("\n")}
`;
};

/** Dispatches to a command; usage and input errors print a message and return 2, never a stack trace. */
export const runCli = async (argv: readonly string[], io: CliIO, version = "unknown"): Promise<number> => {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(help());
    return name === undefined ? ExitCode.usage : ExitCode.ok;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`${version}\n`);
    return ExitCode.ok;
  }
  const command = allCommands().find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`veracity: unknown command "${name}"\n\n${help()}`);
    return ExitCode.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { _tag?: string })._tag === "InputError") {
      io.stderr(`veracity ${name}: ${(error as Error).message}\n`);
      return ExitCode.usage;
    }
    io.stderr(`veracity ${name}: ${(error as Error).message ?? String(error)}\n`);
    return ExitCode.usage;
  }
};
