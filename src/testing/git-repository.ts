import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestRepository {
  readonly directory: string;
  /** The full hash of the one commit holding the files. */
  readonly commit: string;
  /** Runs git in the repository (no shell) and returns its trimmed output. */
  readonly git: (...args: string[]) => string;
}

/** A real git repository in a temporary folder with `files` (path -> content) committed once as `message`. */
export const makeTestRepository = async (
  files: Readonly<Record<string, string>>,
  message = "Add the files",
): Promise<TestRepository> => {
  const directory = await mkdtemp(path.join(tmpdir(), "veracity-repo-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", directory, "-c", "user.name=t", "-c", "user.email=t@example.org", ...args], {
      encoding: "utf8",
    }).trim();
  git("init", "-q");
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(directory, name)), { recursive: true });
    await writeFile(path.join(directory, name), content);
  }
  git("add", ".");
  git("commit", "-q", "-m", message);
  return { directory, commit: git("rev-parse", "HEAD"), git };
};
