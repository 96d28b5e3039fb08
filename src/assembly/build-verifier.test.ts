import { describe, expect, it } from "vitest";
import { buildVerifier } from "./build-verifier.js";

describe("buildVerifier with workers", () => {
  it("verifies in a pool of worker threads when only the offline checks run", async () => {
    const verifier = await buildVerifier({ workers: 2 }, {}, {});
    try {
      expect(verifier.workers).toBe(2);
      const result = await verifier.verify({
        text: "The bridge opened in 1932.",
        sources: ["The bridge opened in 1932 and is 503 metres long."],
      });
      expect(result.verdict).toBe("pass");
    } finally {
      await verifier.close();
    }
  }, 60_000);

  it("stays in this thread when the configuration needs what only it holds (a repository to cite)", async () => {
    const verifier = await buildVerifier({ workers: 2, repository: "." }, {}, {});
    try {
      expect(verifier.workers).toBeUndefined();
    } finally {
      await verifier.close();
    }
  });
});
