import { type CliCommand, type CliIO, ExitCode, UsageError } from "./command.js";
import { type CommandEntry, commands as registeredCommands } from "./commands/index.js";

const checkEntry: CommandEntry = {
  name: "check",
  summary: "check an answer's claims against its sources (offline)",
  load: async () => (await import("./commands/check.js")).checkCommand,
};

export const allCommands = (): readonly CommandEntry[] => [checkEntry, ...registeredCommands];

const help = (): string => {
  const rows = allCommands().map((command) => `  ${command.name.padEnd(10)} ${command.summary}`);
  return `veracity: catch hallucinations in LLM output before they reach a user or an agent's memory

Usage: veracity <command> [options]   (veracity <command> --help for details)

Commands:
${rows.join("\n")}
`;
};

/** `--help` or `-h` anywhere before a `--`, on a command or any of its subcommands. */
const asksForHelp = (argv: readonly string[]): boolean => {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
};

/** A command's help: its usage, then its examples. */
export const commandHelp = (command: CliCommand): string => {
  const examples = command.examples ?? [];
  return examples.length === 0
    ? `${command.usage}\n`
    : `${command.usage}\n\nExamples:\n${examples.map((line) => `  ${line}`).join("\n")}\n`;
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
  const entry = allCommands().find((candidate) => candidate.name === name);
  if (!entry) {
    io.stderr(`veracity: unknown command "${name}"\n\n${help()}`);
    return ExitCode.usage;
  }
  try {
    const command = await entry.load();
    if (asksForHelp(rest) || (rest.length === 1 && rest[0] === "help")) {
      io.stdout(commandHelp(command));
      return ExitCode.ok;
    }
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
