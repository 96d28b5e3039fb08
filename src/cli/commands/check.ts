import { resolve as resolvePath } from "node:path";
import { buildVerifier } from "../../assembly/build-verifier.js";
import { evidenceCharacters } from "../../model/layer.js";
import { type LayerName, LayerName as LayerNameSchema } from "../../model/layer-name.js";
import { inputLimits, unreadableText } from "../../model/limits.js";
import type { VerificationResult } from "../../model/result.js";
import { RiskLevel } from "../../model/risk.js";
import { renderTextReport } from "../../report/text.js";
import { oneOf, parseCommandArgs, positiveInteger } from "../args.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";
import { defaultMaxInputBytes, readTexts } from "../inputs.js";

const usage = `veracity check <answer-file|-> [--source <file|dir|->...] [options]

Checks every claim of an answer against its sources, offline.

Options:
  --source, -s <file|dir|->   a source (.txt, .md, .json), a directory of them, or - for stdin (repeatable)
  --question <text>           the question the answer replies to
  --format text|json|html     output format (default text)
  --fail-on fail|warn|unsupported|contradicted|any
                              what makes the exit code 1 (default fail: the answer verdict is fail; warn:
                              fail or warn; unsupported, contradicted, any: claims with those verdicts too)
  --risk low|medium|high|critical   skip risk assessment and use this level
  --layers a,b                run only these layers (e.g. grounding,numbers)
  --strict                    any skipped layer of the risk profile, or an answer nothing could check, fails
  --evidence <db>             an evidence store for citation checks (PGlite directory or postgres:// URL)
  --repo <dir>                a git repository: commits and ADRs (docs/adr, docs/decisions, adr) cited in the
                              answer must exist there
  --model <spec>              a model for the model-backed layers (e.g. openai:gpt-4o-mini)
  --calibration <file>        calibration models from 'veracity calibrate'
  --config <file>             configuration file, YAML or JSON (VERACITY_CONFIG; VERACITY_* variables and
                              flags override it; schema in schemas/veracity.config.schema.json)
  --memory-db <db> --user <id>   verify facts against this user's facts in a memory store ('veracity memory')
  --max-input-bytes <n>       refuse inputs larger than this (default ${defaultMaxInputBytes})

Verdicts: fail (a claim contradicted or wholly unsupported, or the combined score too high), warn (some
claims unsupported), pass, unverified (nothing could be checked: give sources, an evidence store or a model).

Exit codes: 0 passed or warned, 1 findings, 2 usage or input error, 3 unverified.`;

type FailOn = "fail" | "warn" | "unsupported" | "contradicted" | "any";

/**
 * The exit code for a result under `--fail-on`. By default (`fail`) only the answer verdict `fail` is a
 * finding; `warn` adds warnings; `unsupported`, `contradicted` and `any` look at the claims' verdicts as
 * well. An answer where nothing could be checked exits 3 (`unverified`), never 0.
 */
export const exitCodeFor = (result: VerificationResult, failOn: FailOn): number => {
  if (result.verdict === "fail") return ExitCode.findings;
  const verdicts = new Set(result.claims.map((claim) => claim.verdict));
  const findings =
    failOn === "warn"
      ? result.verdict === "warn"
      : failOn === "contradicted"
        ? verdicts.has("contradicted")
        : failOn === "unsupported"
          ? verdicts.has("unsupported") || verdicts.has("contradicted")
          : failOn === "any"
            ? [...verdicts].some((verdict) => verdict !== "supported")
            : false;
  if (findings) return ExitCode.findings;
  return result.verdict === "unverified" ? ExitCode.unverified : ExitCode.ok;
};

const parseLayers = (value: string | undefined): LayerName[] | undefined => {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const known = LayerNameSchema.members.flatMap((member) => member.literals) as readonly string[];
  for (const name of names)
    if (!known.includes(name)) throw new UsageError(`unknown layer "${name}"; known: ${known.join(", ")}`);
  return names as LayerName[];
};

const run = async (argv: readonly string[], io: CliIO): Promise<number> => {
  const { values, positionals } = parseCommandArgs(argv, {
    source: { type: "string", multiple: true, short: "s" },
    question: { type: "string" },
    format: { type: "string" },
    "fail-on": { type: "string" },
    risk: { type: "string" },
    layers: { type: "string" },
    strict: { type: "boolean" },
    evidence: { type: "string" },
    repo: { type: "string" },
    model: { type: "string" },
    calibration: { type: "string" },
    config: { type: "string" },
    "memory-db": { type: "string" },
    user: { type: "string" },
    "max-input-bytes": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    io.stdout(`${usage}\n`);
    return ExitCode.ok;
  }
  const [answerPath, ...extra] = positionals;
  if (answerPath === undefined) throw new UsageError("missing the answer file (or - for standard input)");
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
  const sourcePaths = values.source ?? [];
  if ([answerPath, ...sourcePaths].filter((path) => path === "-").length > 1) {
    throw new UsageError("standard input (-) can be used only once");
  }
  const format = oneOf(values.format, ["text", "json", "html"] as const, "--format", "text");
  const failOn = oneOf(
    values["fail-on"],
    ["fail", "warn", "unsupported", "contradicted", "any"] as const,
    "--fail-on",
    "fail",
  );
  const risk =
    values.risk === undefined ? undefined : oneOf(values.risk, RiskLevel.literals, "--risk", "medium");
  const limit = positiveInteger(values["max-input-bytes"], "--max-input-bytes", defaultMaxInputBytes);
  const layers = parseLayers(values.layers);

  const readOptions = { cwd: io.cwd, limit, readStdin: io.readStdin };
  const [answer] = await readTexts(answerPath, readOptions);
  if (!answer) throw new UsageError(`no answer text in ${answerPath}`);
  // A directory of sources that holds the answer itself must not count it as its own evidence.
  const sourceOptions =
    answerPath === "-" ? readOptions : { ...readOptions, skip: [resolvePath(io.cwd, answerPath)] };
  const sources = (await Promise.all(sourcePaths.map((path) => readTexts(path, sourceOptions)))).flat();
  if (sourcePaths.length > 0 && sources.length === 0)
    throw new UsageError("the --source paths hold no .txt, .md or .json file");
  // The limits every door shares (limits.ts): the answer's length and the evidence's, and no text a rule cannot read.
  if (answer.text.length > inputLimits.textChars)
    throw new UsageError(
      `the answer (${answer.name}) has ${answer.text.length} characters; the limit is ${inputLimits.textChars}`,
    );
  const evidenceChars = evidenceCharacters(sources);
  if (evidenceChars > inputLimits.evidenceChars)
    throw new UsageError(
      `the sources have ${evidenceChars} characters together; the limit is ${inputLimits.evidenceChars}`,
    );
  for (const named of [answer, ...sources]) {
    const reason = unreadableText(named.text);
    if (reason !== undefined) throw new UsageError(`${named.name} ${reason}`);
  }

  if ((values["memory-db"] === undefined) !== (values.user === undefined))
    throw new UsageError("--memory-db and --user go together: the facts of one user in one memory store");
  const facts =
    values["memory-db"] === undefined || values.user === undefined
      ? undefined
      : // The memory store (and its database driver) loads only when --memory-db asks for it.
        await (await import("../../assembly/fact-memory.js")).openStoreFactMemory(
          values["memory-db"],
          values.user,
          io.cwd,
        );
  const verifier = await buildVerifier(
    {
      cwd: io.cwd,
      ...(facts !== undefined ? { factMemory: facts.memory } : {}),
      ...(values.strict ? { strict: true } : {}),
      ...(values.evidence !== undefined ? { evidence: values.evidence } : {}),
      ...(values.repo !== undefined ? { repository: resolvePath(io.cwd, values.repo) } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values.calibration !== undefined ? { calibration: values.calibration } : {}),
      ...(values.config !== undefined ? { config: values.config } : {}),
    },
    {},
    io.env,
  ).catch(async (error: unknown) => {
    await facts?.close();
    throw error;
  });
  try {
    const result = await verifier.verify({
      text: answer.text,
      sources: sources.map((source) => source.text),
      ...(values.question !== undefined ? { question: values.question } : {}),
      ...(risk !== undefined ? { riskOverride: risk } : {}),
      ...(layers !== undefined ? { layers } : {}),
      ...(values.strict ? { strict: true } : {}),
    });
    const evidenceNames = sources.map((source) => source.name);
    if (format === "json") io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else if (format === "html")
      io.stdout((await import("../../report/html.js")).renderHtmlReport(answer.text, result, evidenceNames));
    else io.stdout(renderTextReport(result, { colour: io.isTTY, evidenceNames }));
    return exitCodeFor(result, failOn);
  } finally {
    await verifier.close();
    await facts?.close();
  }
};

export const checkCommand: CliCommand = {
  name: "check",
  summary: "check an answer's claims against its sources (offline)",
  usage,
  examples: [
    "veracity check answer.md --source source.md",
    "veracity check answer.md --source docs/ --format html > report.html",
    "cat answer.txt | veracity check - --source facts.json --fail-on any",
  ],
  run,
};
