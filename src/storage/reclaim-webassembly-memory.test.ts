import { describe, expect, it } from "vitest";
import { reclaimWebAssemblyMemory } from "./reclaim-webassembly-memory.js";

/** The WebAssembly memory constructor (the project's type libraries do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (
  globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number }) => WasmMemory } }
).WebAssembly;

/** A WebAssembly memory with every page written (resident), reachable only through the returned weak reference. */
const abandonedMemory = (pages: number): WeakRef<WasmMemory> => {
  const memory = new Memory({ initial: pages });
  new Uint8Array(memory.buffer).fill(7);
  return new WeakRef(memory);
};

describe("reclaimWebAssemblyMemory", () => {
  it("frees a WebAssembly memory nothing refers to any more", async () => {
    // 64 MB: no young-generation collection frees it; a full collection must run.
    const abandoned = abandonedMemory(1_024);
    // A weak reference holds its target until the current turn ends, whatever runs meanwhile.
    expect(abandoned.deref()).toBeDefined();
    await reclaimWebAssemblyMemory();
    expect(abandoned.deref()).toBeUndefined();
  });

  it("keeps what is still referred to, and leaves no gc function on the global object", async () => {
    const kept = new Memory({ initial: 16 });
    new Uint8Array(kept.buffer)[0] = 42;
    const reference = new WeakRef(kept);
    const globalGc = (globalThis as { gc?: unknown }).gc;
    await reclaimWebAssemblyMemory();
    await reclaimWebAssemblyMemory();
    expect(reference.deref()).toBe(kept);
    expect(new Uint8Array(kept.buffer)[0]).toBe(42);
    // The collection is taken from a context of its own: the process's global is as it was.
    expect((globalThis as { gc?: unknown }).gc).toBe(globalGc);
  });
});
