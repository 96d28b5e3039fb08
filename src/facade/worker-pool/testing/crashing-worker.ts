/**
 * A pool worker that answers verifications with the offline layers, except that a verification of the text
 * "crash the worker" ends the thread mid-call, as an out-of-memory abort or a native fault would. It fills in
 * the large sources the pool names as the real worker does (kept-sources.ts), so its replacement shows whether
 * the pool still names sources only the dead worker held.
 */
import { parentPort } from "node:worker_threads";
import { createVerifier } from "../../create-verifier.js";
import { keptSourcesStore } from "../kept-sources.js";
import { serializeError, type WorkerCall, type WorkerReply } from "../messages.js";

const verifier = createVerifier();
const send = (reply: WorkerReply) => parentPort?.postMessage(reply);
const kept = keptSourcesStore();
parentPort?.on("message", (sent: WorkerCall) => {
  if (sent.op !== "verify") return; // the pool's tests crash and verify through verify() only
  let call: typeof sent;
  try {
    call = kept.incoming(sent);
  } catch (error) {
    send({ kind: "failure", id: sent.id, error: serializeError(error) });
    return;
  }
  if (call.request.text === "crash the worker") process.exit(70);
  verifier.verify(call.request).then(
    (value) => send({ kind: "result", id: call.id, value }),
    (error: unknown) => send({ kind: "failure", id: call.id, error: serializeError(error) }),
  );
});
send({ kind: "ready" });
