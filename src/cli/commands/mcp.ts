import { openMcpDependencies } from "../../integrations/mcp/dependencies.js";
import { startMcpHttpServer } from "../../integrations/mcp/http.js";
import { serveMcpStdio } from "../../integrations/mcp/stdio.js";
import { parseCommandArgs, positiveInteger } from "../args.js";
import { type CliCommand, ExitCode, UsageError } from "../command.js";

const usage = `veracity mcp [--http --user <id>] [--host 127.0.0.1] [--port 3333] [--memory <db>] [--repository <dir>]

Serves the Veracity tools to MCP clients: verify, check_grounding, validate_numbers, calculate,
verify_citations, ingest_memory, search_memory.
  (default)          stdio: the client starts this command and talks over stdin/stdout
  --http             streamable HTTP at http://<host>:<port>/mcp (stateless, JSON responses)
  --host <address>   default 127.0.0.1
  --port <n>         default 3333
  --user <id>        the only user ingest_memory/search_memory act for (a call naming another is refused);
                     required with --http, whose clients are not authenticated
  --memory <db>      memory store: PGlite directory, memory:// (default) or postgres:// URL
  --repository <dir> repository whose commits and ADRs citations may point to (default: cwd)
  --config <file>    configuration file, YAML or JSON (VERACITY_CONFIG), as for veracity check`;

/** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
const untilStopped = () =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });

export const mcpCommand: CliCommand = {
  name: "mcp",
  summary: "serve the verification tools to MCP clients (stdio or streamable HTTP)",
  usage,
  examples: ["veracity mcp", "veracity mcp --http --user alice --port 3333"],
  run: async (argv, io) => {
    const { values, positionals } = parseCommandArgs(argv, {
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      memory: { type: "string" },
      repository: { type: "string" },
      user: { type: "string" },
      config: { type: "string" },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.http !== true && (values.host !== undefined || values.port !== undefined))
      throw new UsageError("--host and --port need --http");
    if (values.http === true && (values.user === undefined || values.user.trim() === ""))
      throw new UsageError(
        "--http needs --user <id>: HTTP clients are not authenticated, so the memory tools act for one user",
      );
    const dependencies = openMcpDependencies({
      ...(values.memory === undefined ? {} : { memoryDatabase: values.memory }),
      repositoryDir: values.repository ?? io.cwd,
      ...(values.user === undefined ? {} : { userId: values.user }),
      ...(values.config === undefined ? {} : { verifier: { config: values.config, cwd: io.cwd } }),
    });
    try {
      if (values.http === true) {
        const server = await startMcpHttpServer(dependencies, {
          host: values.host ?? "127.0.0.1",
          port: positiveInteger(values.port, "--port", 3333),
        });
        io.stderr(`veracity mcp listening on ${server.url}\n`);
        await untilStopped();
        await server.close();
      } else {
        await serveMcpStdio(dependencies);
      }
    } finally {
      await dependencies.close();
    }
    return ExitCode.ok;
  },
};
