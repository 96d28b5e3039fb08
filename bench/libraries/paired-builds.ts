import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Verifier } from "../../src/facade/create-verifier.js";

/** This tree's build: the `dist` folder `npm run build` writes. */
export const thisTreesDist = resolve(import.meta.dirname, "../../dist");

/** A module of a build's `dist` folder (this tree's, or another commit built into a scratch copy). */
export const importFromBuild = async <M>(dist: string, file: string): Promise<M> => {
  const entry = resolve(dist, file);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build that tree first (npm run build)`);
  return (await import(pathToFileURL(entry).href)) as M;
};

/** A verifier from a build's `dist` folder. */
export const verifierOfBuild = async (dist: string): Promise<Verifier> =>
  (
    await importFromBuild<{ createVerifier: () => Verifier }>(dist, "facade/create-verifier.js")
  ).createVerifier();

/** A worker pool of `workers` threads from a build's `dist` folder, its workers running that build's code. */
export const poolOfBuild = async (dist: string, workers: number): Promise<Verifier> =>
  (
    await importFromBuild<{
      createWorkerPoolVerifier: (options: { readonly workers: number }) => Verifier;
    }>(dist, "facade/worker-pool/index.js")
  ).createWorkerPoolVerifier({ workers });

/** Milliseconds one verification of a request takes, the request parsed from its JSON first, as a server would. */
export const timedVerification = async (verifier: Verifier, json: string): Promise<number> => {
  const request = JSON.parse(json);
  const started = performance.now();
  await verifier.verify(request);
  return performance.now() - started;
};

/**
 * The same request verified by this tree's build and the baseline's, one after the other, `currentFirst`
 * saying which goes first (callers alternate it, so both meet the same load): each side's milliseconds.
 */
export const pairedTimes = async (
  current: Verifier,
  baseline: Verifier,
  json: string,
  currentFirst: boolean,
): Promise<{ readonly current: number; readonly baseline: number }> => {
  const first = await timedVerification(currentFirst ? current : baseline, json);
  const second = await timedVerification(currentFirst ? baseline : current, json);
  return currentFirst ? { current: first, baseline: second } : { current: second, baseline: first };
};

/**
 * The arguments of a bench that sets this tree's build beside another's: `--baseline <dist>` (required: the
 * process exits with status 2 without it), `--rounds` (`roundsByDefault`, 5 unless given), `--payloads`
 * (`payloadsByDefault`), `--set`
 * (the payloads of one labelled set only, say `tatqa`: a change to one kind of text, measured on it), and, for
 * a bench that offers worker pools (`withWorkers`), `--workers` (default 0: verifiers in this thread).
 */
export const pairedBenchArguments = (payloadsByDefault: number, withWorkers = false, roundsByDefault = 5) => {
  const { values } = parseArgs({
    options: {
      baseline: { type: "string" },
      rounds: { type: "string", default: String(roundsByDefault) },
      payloads: { type: "string", default: String(payloadsByDefault) },
      set: { type: "string" },
      ...(withWorkers ? { workers: { type: "string", default: "0" } } : {}),
    },
  });
  if (values.baseline === undefined) {
    process.stderr.write("give --baseline <another build's dist folder>\n");
    process.exit(2);
  }
  const workers = Number((values as { workers?: string }).workers ?? 0);
  if (!Number.isInteger(workers) || workers < 0) {
    process.stderr.write("--workers is a count of worker threads, 0 or more\n");
    process.exit(2);
  }
  return {
    baseline: values.baseline,
    rounds: Number(values.rounds),
    payloads: Number(values.payloads),
    set: values.set,
    workers,
  };
};
