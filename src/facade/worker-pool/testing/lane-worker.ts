/**
 * A pool worker for the large-lane tests that verifies nothing: it answers each call with its thread's id and
 * the calibration its verifier would use (built from the pool's configuration, updated by `updateCalibration`),
 * the heap limits its thread started with, and how many times the pool has had it release its verifier.
 * A verification whose text starts with "hold" blocks the thread synchronously, as a 10 MB source does, until
 * the test lets it go: first it sends an event (through the pool's subscribers) carrying its thread's id and a
 * shared gate, which the test opens with `Atomics.store` and `Atomics.notify`. A text starting with "crash"
 * ends the thread mid-call.
 */
import { parentPort, type ResourceLimits, resourceLimits, threadId, workerData } from "node:worker_threads";
import type { CalibrationModels } from "../../../calibration/calibrator.js";
import type { WorkerCall, WorkerReply, WorkerVerifierConfig } from "../messages.js";

/** What this worker answers a verification with. */
export interface LaneWorkerAnswer {
  readonly threadId: number;
  readonly calibration: CalibrationModels;
  readonly resourceLimits: ResourceLimits;
  readonly releases: number;
}

/** The event a held verification sends before it blocks. */
export interface HeldEvent {
  readonly type: "test.held";
  readonly payload: { readonly threadId: number; readonly gate: Int32Array };
}

let calibration: CalibrationModels = ((workerData ?? {}) as WorkerVerifierConfig).calibration ?? {};
let releases = 0;
const send = (reply: WorkerReply) => parentPort?.postMessage(reply);

const hold = () => {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const event: HeldEvent = { type: "test.held", payload: { threadId, gate } };
  send({ kind: "event", event: event as never });
  // Short waits, so a terminate() from the pool (a deadline) takes effect between them.
  while (Atomics.load(gate, 0) === 0) Atomics.wait(gate, 0, 0, 50);
};

parentPort?.on("message", (call: WorkerCall) => {
  if (call.op === "updateCalibration") calibration = { ...calibration, ...call.models };
  if (call.op === "release") releases += 1;
  if (call.op === "verify" && call.request.text.startsWith("crash")) process.exit(70);
  if (call.op === "verify" && call.request.text.startsWith("hold")) hold();
  const answer: LaneWorkerAnswer = { threadId, calibration, resourceLimits, releases };
  const answered = call.op === "updateCalibration" || call.op === "release" ? undefined : answer;
  send({ kind: "result", id: call.id, value: answered });
});
send({ kind: "ready" });
