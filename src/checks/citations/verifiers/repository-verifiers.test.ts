import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationKey, type ExtractedCitation } from "../citation.js";
import { makeAdrVerifier } from "./adr-verifier.js";
import { makeGitVerifier } from "./git-verifier.js";
import { makeIssueVerifier } from "./issue-verifier.js";
import type { CitationVerifier } from "./verifier.js";

const citation = (kind: string, value: string): ExtractedCitation => ({
  kind,
  value,
  raw: value,
  span: { start: 0, end: value.length },
  surroundingText: value,
});

const statusOf = async (verifier: CitationVerifier, kind: string, value: string) =>
  (await Effect.runPromise(verifier.verify([citation(kind, value)]))).get(citationKey(kind, value))?.status;

describe("git, ADR and issue verifiers", () => {
  let directory: string;
  let commit: string;
  let tree: string;
  let server: Server;
  let endpoint: string;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "veracity-repo-"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", directory, "-c", "user.name=t", "-c", "user.email=t@example.org", ...args], {
        encoding: "utf8",
      }).trim();
    git("init", "-q");
    await writeFile(path.join(directory, "README.md"), "hello\n");
    git("add", "README.md");
    git("commit", "-q", "-m", "first");
    commit = git("rev-parse", "HEAD");
    tree = git("rev-parse", "HEAD^{tree}");
    const decisions = path.join(directory, "decisions");
    execFileSync("mkdir", ["-p", decisions]);
    await writeFile(path.join(decisions, "ADR-003-use-pglite.md"), "# ADR 3\n");
    await writeFile(path.join(decisions, "0012-effect.md"), "# ADR 12\n");
    server = createServer((request, response) => {
      if (request.url === "/repos/o/r/issues/123") response.writeHead(200).end("{}");
      else if (request.url === "/repos/o/r/issues/500") response.writeHead(503).end();
      else response.writeHead(404).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repos/o/r`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(directory, { recursive: true, force: true });
  });

  it("verifies a full and a short commit hash of the repository", async () => {
    const git = makeGitVerifier({ repository: directory });
    expect(await statusOf(git, "commit", commit)).toBe("VERIFIED");
    expect(await statusOf(git, "commit", commit.slice(0, 8))).toBe("VERIFIED");
  });

  it("reports an unknown commit and a tree hash as NOT_FOUND", async () => {
    const git = makeGitVerifier({ repository: directory });
    expect(await statusOf(git, "commit", "1234567abcdef")).toBe("NOT_FOUND");
    expect(await statusOf(git, "commit", tree)).toBe("NOT_FOUND");
  });

  it("never passes a value that is not hex to git", async () => {
    const git = makeGitVerifier({ repository: directory });
    expect(await statusOf(git, "commit", "--output=/tmp/x")).toBe("NOT_FOUND");
  });

  it("reports a missing repository as ERROR", async () => {
    const git = makeGitVerifier({ repository: path.join(directory, "nope") });
    expect(await statusOf(git, "commit", commit)).toBe("ERROR");
  });

  it.each([
    ["3", "VERIFIED"],
    ["12", "VERIFIED"],
    ["4", "NOT_FOUND"],
  ])("ADR %s is %s", async (number, expected) => {
    const adr = makeAdrVerifier({ directory: path.join(directory, "decisions") });
    expect(await statusOf(adr, "adr", number)).toBe(expected);
  });

  it("reports an unreadable decisions folder as ERROR", async () => {
    expect(await statusOf(makeAdrVerifier({ directory: path.join(directory, "missing") }), "adr", "3")).toBe(
      "ERROR",
    );
  });

  it.each([
    ["123", "VERIFIED"],
    ["124", "NOT_FOUND"],
    ["500", "ERROR"],
  ])("issue #%s is %s", async (number, expected) => {
    expect(await statusOf(makeIssueVerifier({ endpoint }), "issue", number)).toBe(expected);
  });
});
