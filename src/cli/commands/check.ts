import { resolve as resolvePath } from "node:path";
import { type LayerName, LayerName as LayerNameSchema } from "../../model/layer-name.js";
import type { VerificationResult } from "../../model/result.js";
import { RiskLevel } from "../../model/risk.js";
import { renderHtmlReport } from "../../report/html.js";
import { renderTextReport } from "../../report/text.js";
import { oneOf, parseCommandArgs, positiveInteger } from "../args.js";
import { buildVerifier } from "../build-verifier.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";
import { openStoreFactMemory } from "../fact-memory.js";
import { defaultMaxInputBytes, readTexts } from "../inputs.js";

const usage = `veracity check <answer-file|-> --source <file|dir|->... [options]

Checks every claim of an answer against its sources, offline.

Options:
  --source, -s <file|dir|->   a source (.txt, .md, .json), a directory of them, or - for stdin (repeatable)
  --question <text>           the question the answer replies to
  --format text|json|html     output format (default text)
  --fail-on unsupported|contradicted|any
                              which claim verdicts make the exit code 1 (default unsupported: unsupported
                              or contradicted claims, or a failed verification)
  --risk low|medium|high|critical   skip risk assessment and use this level
  --layers a,b                run only these layers (e.g. grounding,numbers)
  --strict                    any skipped layer of the risk profile fails the verification
  --evidence <db>             an evidence store for citation checks (PGlite directory or postgres:// URL)
  --repo <dir>                a git repository: commits and ADRs (docs/adr, docs/decisions, adr) cited in the
                              answer must exist there
  --model <spec>              a model for the model-backed layers (e.g. openai:gpt-4o-mini)
  --calibration <file>        calibration models from 'veracity calibrate'
  --config <file>             verification settings (JSON; also VERACITY_CONFIG and VERACITY_* variables)
  --memory-db <db> --user <id>   verify facts against this user's facts in a memory store ('veracity memory')
  --max-input-bytes <n>       refuse inputs larger than this (default ${defaultMaxInputBytes})

Exit codes: 0 passed, 1 findings, 2 usage or input error.`;

type FailOn = "unsupported" | "contradicted" | "any";

/** The exit code for a result under `--fail-on`; a verification where nothing could run always fails. */
export const exitCodeFor = (result: VerificationResult, failOn: FailOn): number => {
  const nothingRan =
    result.layersRun.length === 0 || result.skippedLayers.some((skipped) => skipped.error === true);
  const verdicts = new Set(result.claims.map((claim) => claim.verdict));
  const findings =
    failOn === "contradicted"
      ? verdicts.has("contradicted") || nothingRan
      : failOn === "unsupported"
        ? !result.passed || verdicts.has("unsupported") || verdicts.has("contradicted")
        : !result.passed || [...verdicts].some((verdict) => verdict !== "supported");
  return findings ? ExitCode.findings : ExitCode.ok;
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
  if (
    sourcePaths.length === 0 &&
    values.evidence === undefined &&
    values.repo === undefined &&
    values.model === undefined
  ) {
    throw new UsageError(
      "give at least one --source (or --evidence / --repo / --model): there is nothing to check against",
    );
  }
  if ([answerPath, ...sourcePaths].filter((path) => path === "-").length > 1) {
    throw new UsageError("standard input (-) can be used only once");
  }
  const format = oneOf(values.format, ["text", "json", "html"] as const, "--format", "text");
  const failOn = oneOf(
    values["fail-on"],
    ["unsupported", "contradicted", "any"] as const,
    "--fail-on",
    "unsupported",
  );
  const risk =
    values.risk === undefined ? undefined : oneOf(values.risk, RiskLevel.literals, "--risk", "medium");
  const limit = positiveInteger(values["max-input-bytes"], "--max-input-bytes", defaultMaxInputBytes);
  const layers = parseLayers(values.layers);

  const readOptions = { cwd: io.cwd, limit, readStdin: io.readStdin };
  const [answer] = await readTexts(answerPath, readOptions);
  if (!answer) throw new UsageError(`no answer text in ${answerPath}`);
  const sources = (await Promise.all(sourcePaths.map((path) => readTexts(path, readOptions)))).flat();
  if (sourcePaths.length > 0 && sources.length === 0)
    throw new UsageError("the --source paths hold no .txt, .md or .json file");

  if ((values["memory-db"] === undefined) !== (values.user === undefined))
    throw new UsageError("--memory-db and --user go together: the facts of one user in one memory store");
  const facts =
    values["memory-db"] === undefined || values.user === undefined
      ? undefined
      : await openStoreFactMemory(values["memory-db"], values.user, io.cwd);
  const verifier = await buildVerifier({
    ...(facts !== undefined ? { factMemory: facts.memory } : {}),
    ...(values.strict ? { strict: true } : {}),
    ...(values.evidence !== undefined ? { evidence: values.evidence } : {}),
    ...(values.repo !== undefined ? { repository: resolvePath(io.cwd, values.repo) } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.calibration !== undefined ? { calibration: values.calibration } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
  }).catch(async (error: unknown) => {
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
    else if (format === "html") io.stdout(renderHtmlReport(answer.text, result, evidenceNames));
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
  run,
};
