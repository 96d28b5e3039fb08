import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { datasetsCacheDir } from "./cache-dir.js";

describe("datasetsCacheDir", () => {
  it.each<[string, Record<string, string>, string | undefined, NodeJS.Platform, string]>([
    ["the flag first", { VERACITY_CACHE_DIR: "/env" }, "/flag", "linux", "/flag"],
    [
      "then VERACITY_CACHE_DIR",
      { VERACITY_CACHE_DIR: "/env", XDG_CACHE_HOME: "/xdg" },
      undefined,
      "linux",
      "/env",
    ],
    [
      "then XDG_CACHE_HOME on Linux",
      { XDG_CACHE_HOME: "/xdg" },
      undefined,
      "linux",
      "/xdg/veracity/datasets",
    ],
    ["else ~/.cache on Linux", {}, undefined, "linux", "/home/u/.cache/veracity/datasets"],
    [
      "~/Library/Caches on macOS",
      { XDG_CACHE_HOME: "/xdg" },
      undefined,
      "darwin",
      "/home/u/Library/Caches/veracity/datasets",
    ],
  ])("takes %s", (_name, env, flag, platform, expected) => {
    expect(datasetsCacheDir(env, flag, platform, "/home/u")).toBe(resolve(expected));
  });

  it("uses LOCALAPPDATA on Windows", () => {
    expect(
      datasetsCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, undefined, "win32", "/home/u"),
    ).toBe(join("C:\\Users\\u\\AppData\\Local", "veracity", "datasets"));
  });
});
