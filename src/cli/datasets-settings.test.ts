import { describe, expect, it } from "vitest";
import { fetchOptionsOf, terminalProgress } from "./datasets-settings.js";

describe("terminalProgress", () => {
  it("rewrites one stderr line on a terminal and clears it when done", () => {
    const written: string[] = [];
    const progress = terminalProgress(true, (text) => written.push(text));
    progress.update?.("summedits: file 1/6, 0.1 MB");
    progress.done();
    expect(written).toEqual(["\r\x1b[2Ksummedits: file 1/6, 0.1 MB", "\r\x1b[2K"]);
  });

  it("writes nothing when stderr is not a terminal", () => {
    const written: string[] = [];
    const progress = terminalProgress(false, (text) => written.push(text));
    expect(progress.update).toBeUndefined();
    progress.done();
    expect(written).toEqual([]);
  });
});

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
