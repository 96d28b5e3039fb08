import { describe, expect, it } from "vitest";
import { fetchOptionsOf } from "./datasets-settings.js";

describe("fetchOptionsOf", () => {
  it("takes the mirror and idle timeout from the environment, the flag first", () => {
    const options = fetchOptionsOf(
      {
        VERACITY_DATASETS_MIRROR: "https://mirror.example",
        VERACITY_DATASETS_TIMEOUT_MS: "500",
        VERACITY_CACHE_DIR: "/c",
      },
      { mirror: "https://other.example" },
    );
    expect(options).toMatchObject({ mirror: "https://other.example", idleTimeoutMs: 500, cacheDir: "/c" });
  });

  it("rejects an idle timeout that is not a whole number of milliseconds", () => {
    expect(() => fetchOptionsOf({ VERACITY_DATASETS_TIMEOUT_MS: "soon" }, {})).toThrow(
      /VERACITY_DATASETS_TIMEOUT_MS/,
    );
  });
});
