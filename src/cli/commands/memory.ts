import { mkdir } from "node:fs/promises";
import path from "node:path";
import { openMemoryGate } from "../../assembly/memory-gate.js";
import type { MemoryGateClient } from "../../memory/gate/create-memory-gate.js";
import type { IngestOutcome } from "../../memory/gate/memory-gate.js";
import { redactSecrets } from "../../storage/errors.js";
import { oneOf, parseCommandArgs, positiveInteger } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";

const usage = `veracity memory ingest <claim|-> --user ID [--source user] [--type fact|decision|preference] [--valid-until ISO]
veracity memory pending --user ID [--limit N]
veracity memory approve <queue-id> --user ID
veracity memory reject <queue-id> --user ID --reason TEXT
veracity memory search <query> --user ID [--limit N]

Grounded memory ingestion over an embedded store: ingest stores a grounded claim (exit 0), queues an uncertain
one for its owner's review or refuses speculation and duplicates (exit 1). Common flags: --db DIR|postgres://URL
(default .veracity/data), --repo DIR for ADRs and commits (default the working directory), --fetch-urls to check
cited URLs over HTTP, --json.`;

const common = {
  user: { type: "string" },
  db: { type: "string" },
  repo: { type: "string" },
  "fetch-urls": { type: "boolean" },
  json: { type: "boolean" },
} as const;

const databaseOf = async (db: string | undefined, io: CliIO): Promise<string> => {
  const target = db ?? ".veracity/data";
  if (/^postgres(?:ql)?:\/\//i.test(target) || target === "memory://") return target;
  const directory = path.resolve(io.cwd, target);
  await mkdir(directory, { recursive: true });
  return directory;
};

const userOf = (user: string | undefined): string => {
  if (user === undefined || user.trim().length === 0) throw new UsageError("--user is required");
  return user;
};

const withGate = async <A>(
  values: { db?: string | undefined; repo?: string | undefined; "fetch-urls"?: boolean | undefined },
  io: CliIO,
  work: (gate: MemoryGateClient) => Promise<A>,
): Promise<A> => {
  const gate = await openMemoryGate(
    {
      auditTrail: true,
      database: await databaseOf(values.db, io),
      repositoryDir: path.resolve(io.cwd, values.repo ?? "."),
      fetchUrls: values["fetch-urls"] === true,
    },
    io.env,
  );
  try {
    return await work(gate);
  } finally {
    await gate.close();
  }
};

const describeOutcome = (outcome: IngestOutcome): string => {
  const { result } = outcome;
  const head =
    outcome.status === "stored"
      ? `stored ${outcome.memory.id}`
      : outcome.status === "queued"
        ? `queued for review ${outcome.pending.queueId}`
        : "blocked";
  const failed = result.checksFailed.map((check) => `  failed: ${check}\n`).join("");
  return `${head}: ${result.reason}\n${failed}`;
};

const ingest = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, {
    ...common,
    source: { type: "string" },
    type: { type: "string" },
    "valid-until": { type: "string" },
  });
  if (positionals.length !== 1)
    throw new UsageError("give exactly one claim (or - to read it from standard input)");
  const content = positionals[0] === "-" ? (await io.readStdin()).trim() : positionals[0]!;
  const candidate = {
    content,
    userId: userOf(values.user),
    source: values.source ?? "user",
    memoryType: oneOf(values.type, ["fact", "decision", "preference"], "--type", "fact"),
    ...(values["valid-until"] === undefined ? {} : { validUntil: values["valid-until"] }),
  };
  const outcome = await withGate(values, io, (gate) => gate.ingest(candidate));
  io.stdout(values.json ? `${JSON.stringify(outcome)}\n` : describeOutcome(outcome));
  return outcome.status === "stored" ? ExitCode.ok : ExitCode.findings;
};

const pending = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, { ...common, limit: { type: "string" } });
  if (positionals.length > 0) throw new UsageError("pending takes no positional arguments");
  const limit = positiveInteger(values.limit, "--limit", 20);
  const items = await withGate(values, io, (gate) => gate.pending(userOf(values.user), limit));
  if (values.json) io.stdout(`${JSON.stringify(items)}\n`);
  else if (items.length === 0) io.stdout("no pending memories\n");
  else
    for (const item of items)
      io.stdout(
        `${item.queueId}  [${item.memoryType}/${item.source}] ${item.content}\n  ${item.validation.reason}\n`,
      );
  return ExitCode.ok;
};

const decide = async (argv: readonly string[], io: CliIO, action: "approve" | "reject"): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, { ...common, reason: { type: "string" } });
  if (positionals.length !== 1) throw new UsageError(`${action} takes exactly one queue id`);
  const queueId = positionals[0]!;
  const user = userOf(values.user);
  if (action === "approve") {
    const memory = await withGate(values, io, (gate) => gate.approve(queueId, user));
    io.stdout(values.json ? `${JSON.stringify(memory)}\n` : `approved: stored ${memory.id}\n`);
  } else {
    if (values.reason === undefined) throw new UsageError("--reason is required to reject");
    const reason = values.reason;
    await withGate(values, io, (gate) => gate.reject(queueId, user, reason));
    io.stdout(values.json ? `${JSON.stringify({ rejected: queueId })}\n` : `rejected ${queueId}\n`);
  }
  return ExitCode.ok;
};

const search = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, { ...common, limit: { type: "string" } });
  if (positionals.length === 0) throw new UsageError("give a search query");
  const limit = positiveInteger(values.limit, "--limit", 10);
  const hits = await withGate(values, io, (gate) =>
    gate.search(userOf(values.user), positionals.join(" "), limit),
  );
  if (values.json) io.stdout(`${JSON.stringify(hits)}\n`);
  else if (hits.length === 0) io.stdout("no memories found\n");
  else for (const hit of hits) io.stdout(`${hit.memory.id}  ${hit.rank.toFixed(3)}  ${hit.memory.content}\n`);
  return ExitCode.ok;
};

const messageOf = (error: unknown): string => {
  const failure = error as { message?: unknown };
  return redactSecrets(typeof failure.message === "string" ? failure.message : String(error));
};

/** `veracity memory`: the grounded ingestion gate and its review queue over the embedded store. */
export const memoryCommand: CliCommand = {
  name: "memory",
  summary: "store grounded claims, review uncertain ones, search the fact memory",
  usage,
  examples: [
    `veracity memory ingest "I prefer metric units." --user alice --source user`,
    "veracity memory pending --user alice",
    "veracity memory approve <queue-id> --user alice",
    `veracity memory search "units" --user alice`,
  ],
  run: async (argv, io) => {
    const [subcommand, ...rest] = argv;
    try {
      if (subcommand === "ingest") return await ingest(rest, io);
      if (subcommand === "pending") return await pending(rest, io);
      if (subcommand === "approve") return await decide(rest, io, "approve");
      if (subcommand === "reject") return await decide(rest, io, "reject");
      if (subcommand === "search") return await search(rest, io);
      throw new UsageError(`unknown memory subcommand ${subcommand ?? "(none)"}\n${usage}`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.stderr(`veracity memory: ${messageOf(error)}\n`);
      return ExitCode.usage;
    }
  },
};
