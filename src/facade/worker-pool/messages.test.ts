import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import type { PreparedAnswer } from "../prepared-answer.js";
import { movableBuffers, type WorkerCall } from "./messages.js";

const request = { text: "The plant employs 1,200 people." };
const preparedCall: WorkerCall = { id: 1, op: "verifyPrepared", request, options: { layerClaims: false } };
const answerWith = (body: Uint8Array<ArrayBuffer>): PreparedAnswer =>
  ({ body, summary: {}, outputHash: "h" }) as unknown as PreparedAnswer;

/** Posts a value through a real message port with the given transfer list and returns what arrives. */
const roundTrip = async (value: unknown, transfer: readonly ArrayBuffer[] | undefined): Promise<unknown> => {
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise((resolve) => port2.once("message", resolve));
  port1.postMessage(value, transfer);
  const message = await arrived;
  port1.close();
  port2.close();
  return message;
};

describe("movableBuffers", () => {
  it("moves a prepared answer's body: the bytes arrive and the sender's copy is gone", async () => {
    const body = new TextEncoder().encode('{"passed":true,"text":"Zürich"}');
    const answer = answerWith(body);
    const transfer = movableBuffers(preparedCall, answer);
    expect(transfer).toEqual([body.buffer]);
    const arrived = (await roundTrip(answer, transfer)) as PreparedAnswer;
    expect(new TextDecoder().decode(arrived.body)).toBe('{"passed":true,"text":"Zürich"}');
    expect(body.byteLength).toBe(0);
  });

  it("copies a body that is a view into a larger buffer, leaving the sender's bytes in place", async () => {
    const shared = new Uint8Array(64).fill(65);
    const body = shared.subarray(8, 16);
    const answer = answerWith(body);
    const transfer = movableBuffers(preparedCall, answer);
    expect(transfer).toBeUndefined();
    const arrived = (await roundTrip(answer, transfer)) as PreparedAnswer;
    expect(arrived.body.byteLength).toBe(8);
    expect(shared.byteLength).toBe(64);
  });

  it("moves nothing, and does not throw, when a prepared call's answer has no body of bytes", () => {
    for (const value of [undefined, null, {}, { body: "{}" }, { body: new Uint16Array(4) }])
      expect(movableBuffers(preparedCall, value)).toBeUndefined();
  });

  it("moves nothing for calls whose answers are not prepared answers", () => {
    const body = new TextEncoder().encode("{}");
    for (const call of [
      { id: 2, op: "verify", request },
      { id: 3, op: "verifyLean", request },
      { id: 4, op: "assessRisk", text: "x" },
    ] as WorkerCall[])
      expect(movableBuffers(call, answerWith(body))).toBeUndefined();
  });
});
