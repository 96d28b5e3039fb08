/**
 * A pool worker that answers verifications with the offline layers, except that a verification of the text
 * "spin" never yields: a synchronous loop without end, as a pathological input to a slow algorithm would be.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createVerifier } from "../../create-verifier.js";
import { serializeError, type WorkerCall, type WorkerReply, type WorkerVerifierConfig } from "../messages.js";

// Built from the pool's configuration as the real worker is, so a replacement shows what the pool passed on.
const verifier = createVerifier((workerData ?? {}) as WorkerVerifierConfig);
const send = (reply: WorkerReply) => parentPort?.postMessage(reply);
parentPort?.on("message", (call: WorkerCall) => {
  if (call.op === "updateCalibration") {
    verifier
      .updateCalibration(call.models)
      .then(() => send({ kind: "result", id: call.id, value: undefined }));
    return;
  }
  if (call.op !== "verify") return; // the pool's tests spin and verify through verify() only
  if (call.request.text === "spin") for (;;);
  verifier.verify(call.request).then(
    (value) => send({ kind: "result", id: call.id, value }),
    (error: unknown) => send({ kind: "failure", id: call.id, error: serializeError(error) }),
  );
});
send({ kind: "ready" });
