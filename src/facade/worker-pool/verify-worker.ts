/**
 * A worker thread of the verification pool: builds its own verifier (the offline evidence layers) and answers
 * the pool's calls one message at a time. Events of its verifier are forwarded to the pool's subscribers.
 */
import { parentPort, workerData } from "node:worker_threads";
import { validateNumbers } from "../../checks/numbers/validate/validate-numbers.js";
import { leanResult } from "../../model/lean-result.js";
import { createVerifier } from "../create-verifier.js";
import { prepareAnswer } from "../prepared-answer.js";
import { warmUpVerifier } from "../warm-up-verifier.js";
import {
  movableBuffers,
  serializeError,
  type WorkerCall,
  type WorkerReply,
  type WorkerVerifierConfig,
} from "./messages.js";

const port = parentPort;
if (port === null) throw new Error("verify-worker runs only as a worker thread");
const send = (reply: WorkerReply, transfer?: readonly ArrayBuffer[]) => port.postMessage(reply, transfer);

const config = (workerData ?? {}) as WorkerVerifierConfig;
// The pool sends only the settings it was given (no undefined keys).
const verifier = createVerifier(config);
await verifier.subscribe((event) => send({ kind: "event", event }));

const answer = (call: WorkerCall): Promise<unknown> => {
  switch (call.op) {
    case "verify":
      return verifier.verify(call.request);
    case "verifyLean":
      return verifier.verify(call.request).then(leanResult);
    case "verifyPrepared":
      return verifier.verify(call.request).then((result) => prepareAnswer(result, call.options));
    case "runLayer":
      return verifier.runLayer(call.layer, call.text, call.context, call.sources);
    case "assessRisk":
      return verifier.assessRisk(call.text, call.context);
    case "validateNumbersJson":
      return Promise.resolve().then(() => JSON.stringify(validateNumbers(call.input)));
    case "updateCalibration":
      return verifier.updateCalibration(call.models);
    case "warmUp":
      return warmUp(call);
  }
};

/**
 * The warm-up runs in a verifier of its own, built the same way: the code it compiles is the module's, shared
 * with the worker's verifier, while its events reach no subscriber (no metric counts a made-up answer) and its
 * caches are dropped with it.
 */
const warmUp = async (call: Extract<WorkerCall, { op: "warmUp" }>) => {
  const own = createVerifier(config);
  try {
    return await warmUpVerifier(own, {
      ...(call.maxVerifications === undefined ? {} : { maxVerifications: call.maxVerifications }),
      ...(call.maxMs === undefined ? {} : { maxMs: call.maxMs }),
    });
  } finally {
    await own.close();
  }
};

port.on("message", (call: WorkerCall) => {
  answer(call).then(
    (value) => send({ kind: "result", id: call.id, value }, movableBuffers(call, value)),
    (error: unknown) => send({ kind: "failure", id: call.id, error: serializeError(error) }),
  );
});
send({ kind: "ready" });
