import type { CliCommand } from "../command.js";
import { auditCommand } from "./audit.js";
import { calcCommand } from "./calc.js";
import { calibrateCommand } from "./calibrate.js";
import { evalCommand } from "./eval.js";
import { evidenceCommand } from "./evidence.js";
import { mcpCommand } from "./mcp.js";
import { memoryCommand } from "./memory.js";
import { serveCommand } from "./serve.js";

/** Every `veracity` subcommand. One import and one entry per command. */
export const commands: readonly CliCommand[] = [
  auditCommand,
  calcCommand,
  calibrateCommand,
  evalCommand,
  evidenceCommand,
  mcpCommand,
  memoryCommand,
  serveCommand,
];
