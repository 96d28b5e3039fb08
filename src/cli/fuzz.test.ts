import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliIn } from "./testing.js";

/**
 * Random command lines for the commands that finish on their own: known flags with values of any kind, files that
 * are empty, binary, JSON, directories or missing, `-` for standard input, hostile strings. Whatever the line,
 * the CLI returns one of its exit codes (0 passed, 1 findings, 2 usage or input error, 3 unverified) within a
 * deadline, and what it prints is a message, not an internal error (a TypeError turned into exit 2 would be a
 * crash in disguise). Left out: `serve` and `mcp` (they serve until stopped) and `datasets` (it downloads).
 */

const perRunDeadlineMs = 20_000;
const runs = 80;

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "veracity-cli-fuzz-"));
  await writeFile(
    join(workspace, "answer.txt"),
    "The Eiffel Tower is 330 metres tall. I guess it opened in 1889.",
  );
  await writeFile(join(workspace, "source.txt"), "The Eiffel Tower is 330 metres tall. It opened in 1889.");
  await writeFile(join(workspace, "empty.txt"), "");
  await writeFile(join(workspace, "binary.bin"), Buffer.from([0, 255, 254, 0, 1, 2, 0xed, 0xa0, 0x80]));
  await writeFile(join(workspace, "nul.txt"), "It is\u0000 5 m.");
  await writeFile(
    join(workspace, "data.json"),
    JSON.stringify({ samples: [{ score: 2, supported: "yes" }] }),
  );
  await writeFile(join(workspace, "lines.jsonl"), '{"text": 1}\nnot json\n{}\n');
  await writeFile(join(workspace, "numbers.txt"), "1.5% ".repeat(20_000));
  await mkdir(join(workspace, "folder"));
}, 30_000);

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const commandNames = ["check", "calc", "memory", "audit", "calibrate", "evidence", "eval", "serve"] as const;

/** Words each command reads first (subcommands), so the fuzzer also gets past the dispatch. */
const subcommands: Record<(typeof commandNames)[number], readonly string[]> = {
  check: [],
  calc: ["1 + 1", "1 / 0", "(((((", "9".repeat(400), "sqrt(-1)", "2 ^ 99999"],
  memory: ["ingest", "pending", "approve", "reject", "search", "validate", "expire", "audit"],
  audit: ["verify", "list"],
  calibrate: [],
  evidence: ["load", "checksum"],
  eval: ["golden", "report"],
  // Only the key management of `serve`: the server itself would listen until stopped.
  serve: ["keys"],
};

const flags = [
  "--source",
  "--question",
  "--format",
  "--fail-on",
  "--max-input-bytes",
  "--layers",
  "--risk",
  "--strict",
  "--config",
  "--calibration",
  "--evidence",
  "--repo",
  "--user",
  "--db",
  "--json",
  "--type",
  "--limit",
  "--reason",
  "--valid-until",
  "--from",
  "--to",
  "--sample",
  "--out",
  "--target-fpr",
  "--role",
  "--label",
  "--anchor",
  "--unknown-flag",
  "-x",
  "--",
];

const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom("\u0000", "\ud800", "\u00a0", "\u200b", "a", " ", "-", "=", "%", "\n"),
    maxLength: 20,
  }),
  fc.constantFrom(
    "",
    "-",
    "--",
    "=",
    "0",
    "-1",
    "1e309",
    "NaN",
    "9".repeat(30),
    "memory://",
    "x".repeat(5_000),
  ),
);

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("answer.txt", "source.txt", "empty.txt", "binary.bin", "nul.txt") },
  {
    weight: 2,
    arbitrary: fc.constantFrom("data.json", "lines.jsonl", "numbers.txt", "folder", "missing.txt"),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("json", "text", "sarif", "agent", "admin", "fact", "high", "grounding"),
  },
  { weight: 3, arbitrary: hostile },
);

/** Command lines close to real ones, with their values drawn from `value`: they get past the parsing. */
const plausible: fc.Arbitrary<string[]> = fc.oneof(
  fc.tuple(value, value).map(([answer, source]) => ["check", answer, "--source", source]),
  fc
    .tuple(value, fc.constantFrom("json", "text", "sarif", "agent"))
    .map(([answer, format]) => ["check", answer, "--format", format]),
  fc.oneof(fc.constantFrom(...subcommands.calc), hostile).map((expression) => ["calc", expression]),
  fc
    .tuple(hostile, value)
    .map(([claim, user]) => ["memory", "ingest", claim, "--user", user, "--db", "memory://"]),
  fc
    .tuple(hostile, value)
    .map(([query, user]) => ["memory", "search", query, "--user", user, "--db", "memory://"]),
  fc.constant<string[]>(["audit", "verify", "--db", "memory://"]),
  value.map((from) => ["calibrate", "--from", from, "--out", "calibration.json"]),
  fc
    .tuple(hostile, hostile)
    .map(([from, to]) => ["evidence", "checksum", "--from", from, "--to", to, "--db", "memory://"]),
  value.map((user) => ["serve", "keys", "create", "--user", user, "--db", "memory://"]),
);

/** Anything from a command name and a handful of known and unknown flags with values of any kind. */
const scrambled = fc
  .tuple(
    fc.constantFrom(...commandNames),
    fc.array(
      fc.oneof(
        fc.constantFrom(...flags),
        value,
        fc.tuple(fc.constantFrom(...flags), value).map(([flag, flagValue]) => `${flag}=${flagValue}`),
      ),
      { maxLength: 7 },
    ),
    fc.boolean(),
  )
  .chain(([command, rest, withSubcommand]) => {
    const words = subcommands[command];
    const first =
      withSubcommand && words.length > 0 ? fc.constantFrom(...words).map((word) => [word]) : fc.constant([]);
    return first.map((head) => [command, ...head, ...rest]);
  });

const argv = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: scrambled }),
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<string[]>([]) },
      { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...flags), value), { maxLength: 2 }) },
    ),
  )
  .map(([line, extra]) => {
    const full = [...line, ...extra];
    // `serve` without `keys` would start the server: a fuzzed line for it always manages keys instead.
    return full[0] === "serve" && full[1] !== "keys" ? ["serve", "keys", ...full.slice(1)] : full;
  });

/** Messages that mean the CLI crashed inside, whatever exit code the dispatcher turned it into. */
const internalError =
  /TypeError|ReferenceError|RangeError|SyntaxError: Unexpected|Cannot read propert|is not a function|Maximum call stack|undefined is not/;

describe("fuzzing the CLI's command lines", () => {
  it("answers every generated command line with an exit code of 0 to 3 and a message, never a crash", async () => {
    const codes = new Map<number, number>();
    const outcome = await fc.check(
      fc.asyncProperty(argv, async (line) => {
        const deadline = new Promise<"hung">((resolve) =>
          setTimeout(() => resolve("hung"), perRunDeadlineMs).unref(),
        );
        const result = await Promise.race([runCliIn(line, workspace), deadline]);
        const shown = JSON.stringify(line).slice(0, 300);
        expect(result, `${shown} did not finish within ${perRunDeadlineMs} ms`).not.toBe("hung");
        if (result === "hung") return;
        codes.set(result.code, (codes.get(result.code) ?? 0) + 1);
        expect([0, 1, 2, 3], `${shown} exited ${result.code}: ${result.stderr.slice(0, 300)}`).toContain(
          result.code,
        );
        expect(result.stderr, `${shown} crashed inside`).not.toMatch(internalError);
        if (result.code === 2)
          expect(result.stderr.trim().length, `${shown} failed without a word`).toBeGreaterThan(0);
      }),
      { numRuns: runs, endOnFailure: true },
    );
    if (outcome.failed)
      throw new Error(
        `failed after ${outcome.numRuns} runs (seed ${outcome.seed}): ${String(outcome.errorInstance).slice(0, 2_000)}`,
      );
    console.info(`CLI fuzz exit codes: ${[...codes].map(([code, times]) => `${code}x${times}`).join(" ")}`);
    // Not every line may be a usage error: some must have run a command to its verdict.
    expect([...codes.keys()].some((code) => code !== 2)).toBe(true);
  }, 300_000);
});
