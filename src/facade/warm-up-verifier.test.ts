import { describe, expect, it } from "vitest";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import { createVerifier } from "./create-verifier.js";
import { warmUpVerifier } from "./warm-up-verifier.js";

/** A verifier that answers with a real one's results and counts what it was sent. */
const counting = (behaviour: (call: number) => Promise<void> = async () => {}) => {
  const real = createVerifier();
  const seen: VerificationRequest[] = [];
  return {
    seen,
    close: () => real.close(),
    verify: async (request: VerificationRequest): Promise<VerificationResult> => {
      seen.push(request);
      await behaviour(seen.length);
      return real.verify(request);
    },
  };
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("warmUpVerifier", () => {
  it("verifies distinct made-up answers with sources, up to the number asked for", async () => {
    const verifier = counting();
    try {
      const report = await warmUpVerifier(verifier, { maxVerifications: 4 });
      expect(report).toMatchObject({ verifications: 4 });
      expect(report.stoppedBy).toBeUndefined();
      expect(new Set(verifier.seen.map((request) => request.text)).size).toBe(4);
      for (const request of verifier.seen) expect(request.sources?.length).toBeGreaterThan(0);
    } finally {
      await verifier.close();
    }
  });

  it("stops at its time bound: each verification here takes 30 ms at least, the bound is 100 ms", async () => {
    const verifier = counting(() => sleep(30));
    try {
      const report = await warmUpVerifier(verifier, { maxVerifications: 1_000, maxMs: 100 });
      // A slow machine runs fewer, never more: a fourth starts before 100 ms at the latest, a fifth cannot.
      expect(report.verifications).toBeGreaterThanOrEqual(1);
      expect(report.verifications).toBeLessThanOrEqual(4);
    } finally {
      await verifier.close();
    }
  });

  it("turns the event loop between verifications, so a timer set before it can abort it", async () => {
    // A real verifier settles its verifications in promise callbacks alone: without a turn of the loop between
    // them, the timer below would fire only after all 200.
    const verifier = createVerifier();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 0);
    try {
      const report = await warmUpVerifier(verifier, {
        maxVerifications: 200,
        maxMs: 60_000,
        signal: controller.signal,
      });
      expect(controller.signal.aborted).toBe(true);
      expect(report.verifications).toBeGreaterThanOrEqual(1);
      expect(report.verifications).toBeLessThan(200);
      expect(report.stoppedBy).toBeUndefined();
    } finally {
      clearTimeout(timer);
      await verifier.close();
    }
  });

  it("runs nothing once its signal is aborted", async () => {
    const verifier = counting();
    try {
      const report = await warmUpVerifier(verifier, { maxVerifications: 10, signal: AbortSignal.abort() });
      expect(report.verifications).toBe(0);
      expect(verifier.seen).toHaveLength(0);
    } finally {
      await verifier.close();
    }
  });

  it("ends at the first error and reports it, without throwing", async () => {
    const verifier = counting(async (call) => {
      if (call === 3) throw new Error("the model is down");
    });
    try {
      const report = await warmUpVerifier(verifier, { maxVerifications: 10 });
      expect(report).toMatchObject({ verifications: 2, stoppedBy: "the model is down" });
      expect(verifier.seen).toHaveLength(3);
    } finally {
      await verifier.close();
    }
  });
});
