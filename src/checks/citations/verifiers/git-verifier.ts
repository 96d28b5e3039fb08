import { spawn } from "node:child_process";
import { Effect } from "effect";
import { type CitationCheck, citationKey } from "../citation.js";
import { type CitationChecks, type CitationVerifier, checkError, notFound, verified } from "./verifier.js";

export interface GitVerifierOptions {
  /** The repository whose commits may be cited. */
  readonly repository: string;
  /** Default 5 s for the whole batch. */
  readonly timeoutMs?: number;
}

const commitHash = /^[0-9a-f]{7,40}$/;

/** Runs `git cat-file --batch-check` once for all the names (no shell; names validated as hex). */
const batchCheck = (repository: string, names: readonly string[], timeoutMs: number) =>
  new Promise<string[]>((resolve, reject) => {
    const child = spawn("git", ["-C", repository, "cat-file", "--batch-check"], {
      shell: false,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: timeoutMs,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString("utf8").slice(0, 2000);
    });
    child.on("error", reject);
    // git may exit before reading its input (a missing repository): the exit status reports that, so a
    // broken pipe on stdin is not a second failure.
    child.stdin.on("error", () => undefined);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(output.split("\n").filter((line) => line.length > 0));
      else reject(new Error(signal ? `git stopped by ${signal}` : `git exited ${code}: ${errors.trim()}`));
    });
    child.stdin.end(`${names.join("\n")}\n`);
  });

/** Commit hashes checked in a configured repository: VERIFIED only when the name is a commit there. */
export const makeGitVerifier = (options: GitVerifierOptions): CitationVerifier => ({
  name: "git",
  kinds: ["commit"],
  verify: (citations) => {
    const names = [...new Set(citations.map((citation) => citation.value))];
    const valid = names.filter((name) => commitHash.test(name));
    return Effect.tryPromise(() =>
      valid.length === 0
        ? Promise.resolve([])
        : batchCheck(options.repository, valid, options.timeoutMs ?? 5000),
    ).pipe(
      Effect.map((lines) => {
        const byName = new Map<string, CitationCheck>();
        valid.forEach((name, index) => {
          const [object, type] = (lines[index] ?? "").split(" ");
          if (type === "commit") byName.set(name, verified("git", `commit ${object} exists`));
          else if (type === "missing") byName.set(name, notFound("git", "no such commit in the repository"));
          else if (type === "ambiguous") byName.set(name, notFound("git", "ambiguous short hash"));
          else if (type !== undefined && object !== undefined && type.length > 0)
            byName.set(name, notFound("git", `names a ${type}, not a commit`));
          else byName.set(name, checkError("git", "no answer from git"));
        });
        return byName;
      }),
      Effect.catchAll((failure) =>
        Effect.succeed(new Map(valid.map((name) => [name, checkError("git", String(failure.error))]))),
      ),
      Effect.map(
        (byName) =>
          new Map(
            citations.map((citation) => [
              citationKey(citation.kind, citation.value),
              byName.get(citation.value) ?? notFound("git", "not a commit hash"),
            ]),
          ) as CitationChecks,
      ),
    );
  },
});
