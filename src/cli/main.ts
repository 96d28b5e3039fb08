#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { runCli } from "./run-cli.js";

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

const version = (): string => {
  try {
    const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return String(packageJson.version);
  } catch {
    return "unknown";
  }
};

const code = await runCli(
  process.argv.slice(2),
  {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin,
    isTTY: Boolean(process.stdout.isTTY) && process.env.NO_COLOR === undefined,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    env: process.env,
  },
  version(),
);
process.exitCode = code;
