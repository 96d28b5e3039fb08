/**
 * A verifier in a thread of its own, with no pool between it and its calls: warms up on `warmUp` for `rounds`
 * rounds (each round's sources given a closing line of their own, so every round reads them anew), posts
 * "ready", and once the parent sends any message verifies `measured` once, one call after the other, then
 * posts the milliseconds that took. `bench:real:warm` runs one of these per core at once: what the machine
 * gives verification on every core when nothing is spent handing calls to workers and answers back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createVerifier } from "../../src/facade/create-verifier.js";
import { inRound, type Payload } from "./real-payloads.js";

const { warmUp, measured, rounds } = workerData as {
  readonly warmUp: readonly Payload[];
  readonly measured: readonly string[];
  readonly rounds: number;
};
for (let round = 0; round < rounds; round++) {
  const verifier = createVerifier();
  for (const payload of warmUp) await verifier.verify(inRound(payload, round));
  await verifier.close();
}
const verifier = createVerifier();
parentPort?.postMessage("ready");
await new Promise((resolve) => parentPort?.once("message", resolve));
const started = performance.now();
for (const json of measured) await verifier.verify(JSON.parse(json) as Payload);
parentPort?.postMessage(performance.now() - started);
await verifier.close();
