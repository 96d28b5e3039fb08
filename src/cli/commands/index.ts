import type { CliCommand } from "../command.js";
import { calcCommand } from "./calc.js";
import { evalCommand } from "./eval.js";
import { evidenceCommand } from "./evidence.js";
import { memoryCommand } from "./memory.js";

/** Every `veracity` subcommand. One import and one entry per command. */
export const commands: readonly CliCommand[] = [calcCommand, evalCommand, evidenceCommand, memoryCommand];
