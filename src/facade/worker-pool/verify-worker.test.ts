import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { VerificationResult } from "../../model/result.js";
import { createVerifier } from "../create-verifier.js";
import { withoutTimings } from "./testing/without-timings.js";
import { createWorkerSlots } from "./worker-slots.js";

// A verification of about 1 MB of source, sent with a release and another call right behind it.
const paragraph =
  "The harbour authority reported 1,240 vessel calls in the spring quarter, up from 1,105 a year earlier. ";
const longRequest = {
  text: "The harbour authority reported 1,240 vessel calls in the spring quarter.",
  sources: [paragraph.repeat(10_000)],
};
const shortRequest = { text: "The harbour reported 1,105 calls.", sources: [paragraph] };

describe("the verification worker's release", () => {
  it("answers the calls sent before and after a release as a verifier in the caller's thread does", async () => {
    const slots = createWorkerSlots({ config: {}, onEvent: () => undefined });
    const inThread = createVerifier();
    try {
      const slot = slots.open();
      await slots.send(slot, { op: "verify", request: shortRequest });
      const running = slots.send<VerificationResult>(slot, { op: "verify", request: longRequest });
      const released = slots.send<void>(slot, { op: "release" });
      const next = slots.send<VerificationResult>(slot, { op: "verify", request: shortRequest });
      const [first, , second] = await Promise.all([running, released, next]);
      expect(withoutTimings(first)).toEqual(withoutTimings(await inThread.verify(longRequest)));
      expect(withoutTimings(second)).toEqual(withoutTimings(await inThread.verify(shortRequest)));
    } finally {
      await Promise.all([slots.close(), inThread.close()]);
    }
  });
});

describe("the built worker", () => {
  it("is one file: it imports Node's modules and packages, none of the package's own files", () => {
    const built = readFileSync(
      new URL("../../../dist/facade/worker-pool/verify-worker.js", import.meta.url),
      "utf8",
    );
    const specifiers = [...built.matchAll(/^\s*import\s[^;]*?from\s*["']([^"']+)["']/gm)].map(
      (match) => match[1],
    );
    const dynamic = [...built.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
    // The worker's own first import: the reading of the imports finds at least it.
    expect(specifiers).toContain("node:worker_threads");
    expect([...specifiers, ...dynamic].filter((specifier) => specifier?.startsWith("."))).toEqual([]);
  });
});
