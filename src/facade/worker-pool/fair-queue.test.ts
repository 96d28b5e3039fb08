import { describe, expect, it } from "vitest";
import { fairQueue } from "./fair-queue.js";

/** Every item the queue gives, in order, until it is empty. */
const drain = <T>(queue: ReturnType<typeof fairQueue<T>>): T[] => {
  const taken: T[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) taken.push(item);
  return taken;
};

describe("fairQueue", () => {
  it("gives one owner's items in the order they came", () => {
    const queue = fairQueue<number>();
    for (let item = 1; item <= 5; item += 1) queue.push("a", item);
    expect(drain(queue)).toEqual([1, 2, 3, 4, 5]);
  });

  it("takes the owners in turn: a late owner's one item comes second, not after every earlier item", () => {
    const queue = fairQueue<string>();
    for (let index = 1; index <= 50; index += 1) queue.push("flood", `flood-${index}`);
    queue.push("other", "other-1");
    const taken = drain(queue);
    expect(taken.indexOf("other-1")).toBe(1);
    expect(taken.filter((item) => item.startsWith("flood"))).toEqual(
      Array.from({ length: 50 }, (_, index) => `flood-${index + 1}`),
    );
  });

  it("alternates between owners with items waiting, whatever order they were pushed in", () => {
    const queue = fairQueue<string>();
    for (const owner of ["a", "a", "a", "b", "c", "c"]) queue.push(owner, owner);
    expect(drain(queue)).toEqual(["a", "b", "c", "a", "c", "a"]);
  });

  it("puts an owner whose items ran out behind the owners waiting when it comes back", () => {
    const queue = fairQueue<string>();
    queue.push("a", "a-1");
    queue.push("b", "b-1");
    queue.push("b", "b-2");
    expect(queue.shift()).toBe("a-1");
    queue.push("a", "a-2");
    queue.push("c", "c-1");
    expect(drain(queue)).toEqual(["b-1", "a-2", "c-1", "b-2"]);
  });

  it("counts the items waiting over every owner, and gives undefined when none is left", () => {
    const queue = fairQueue<number>();
    expect(queue.shift()).toBeUndefined();
    queue.push("a", 1);
    queue.push("b", 2);
    queue.push("a", 3);
    expect(queue.size()).toBe(3);
    queue.shift();
    expect(queue.size()).toBe(2);
    drain(queue);
    expect(queue.size()).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});
