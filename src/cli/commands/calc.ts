import { evaluateExpression } from "../../checks/numbers/calculator/calculate.js";
import { type CliCommand, ExitCode } from "../command.js";

const usage = `veracity calc [--json] "<expression>"

Evaluates an arithmetic expression exactly and prints the full-precision result.
Operators: + - * / % ^ ( ); functions: abs round(x, n) floor ceil min max sum avg sqrt log exp pow.
Use "-" to read the expression from standard input.

  veracity calc "(0.50 - 0.45) / 0.45 * 100"
  veracity calc --json "20893 + 76378"`;

/** `veracity calc`: the safe calculator from the command line. */
export const calcCommand: CliCommand = {
  name: "calc",
  summary: "evaluate an arithmetic expression exactly (no eval)",
  usage,
  examples: [`veracity calc "(0.50 - 0.45) / 0.45 * 100"`, `veracity calc --json "20893 + 76378"`],
  run: async (argv, io) => {
    const json = argv.includes("--json");
    const rest = argv.filter((arg) => arg !== "--json");
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout(`${usage}\n`);
      return ExitCode.ok;
    }
    const unknown = rest.find((arg) => arg.startsWith("--"));
    if (unknown || rest.length !== 1) {
      io.stderr(`${unknown ? `unknown option ${unknown}` : "expected one expression"}\n\n${usage}\n`);
      return ExitCode.usage;
    }
    const expression = rest[0] === "-" ? (await io.readStdin()).trim() : (rest[0] ?? "");
    const outcome = evaluateExpression(expression);
    if (outcome._tag === "Left") {
      const error = outcome.left;
      if (json) io.stdout(`${JSON.stringify({ expression, error: error.message, reason: error.reason })}\n`);
      io.stderr(`calc: ${error.reason}: ${error.message}\n`);
      return ExitCode.usage;
    }
    io.stdout(
      json
        ? `${JSON.stringify({ expression, result: outcome.right.result })}\n`
        : `${outcome.right.result}\n`,
    );
    return ExitCode.ok;
  },
};
