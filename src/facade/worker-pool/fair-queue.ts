/**
 * Items waiting their turn, taken one owner at a time: each owner's items in the order they came, the owners
 * in turn. An owner with a hundred items waiting and another with one: the other's is taken second, not
 * hundred-and-first. Which owner comes first is the one waiting longest since its last turn.
 */
export interface FairQueue<T> {
  readonly push: (owner: string, item: T) => void;
  /** The next item in turn, or undefined when none waits. */
  readonly shift: () => T | undefined;
  /** Items waiting, over every owner. */
  readonly size: () => number;
}

export const fairQueue = <T>(): FairQueue<T> => {
  // A Map iterates in insertion order: an owner taken from is deleted and, when it still has items, set again,
  // which puts it behind every other owner waiting. An owner with nothing waiting has no entry.
  const owners = new Map<string, T[]>();
  let size = 0;
  return {
    push: (owner, item) => {
      const items = owners.get(owner);
      if (items === undefined) owners.set(owner, [item]);
      else items.push(item);
      size += 1;
    },
    shift: () => {
      const first = owners.entries().next();
      if (first.done === true) return undefined;
      const [owner, items] = first.value;
      const item = items.shift() as T;
      owners.delete(owner);
      if (items.length > 0) owners.set(owner, items);
      size -= 1;
      return item;
    },
    size: () => size,
  };
};
