/** FNV-1a's 32-bit offset basis and prime, for hashes that read characters as they scan a text. */
export const fnvOffset = 0x811c9dc5;
export const fnvPrime = 0x01000193;

/** 32-bit FNV-1a of a string: stable across runs and platforms, used to split records deterministically. */
export const fnv1a = (text: string): number => {
  let hash = fnvOffset;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, fnvPrime) >>> 0;
  }
  return hash;
};
