/**
 * A place (a row label, a line) can hold a word only if it holds every two neighbouring characters of it. Each
 * place keeps those pairs as bits of a mask (a hash of the two codes picks the bit), so most places are ruled
 * out for a word by a few bit tests instead of reading their text; a place whose bits all match must be read.
 * 256 bits a place: a row label or a line of a table sets a few dozen (a long line of prose sets most, and is
 * then read as before).
 */
const pairBits = 256;
const pairMaskWords = pairBits / 32;
const pairBit = (first: number, second: number): number => (first * 37 + second) & (pairBits - 1);

/**
 * The masks of the places written one after the other in `joined`, each ended by a separator of
 * `separatorLength` characters: place `p` runs from `starts[p]` to `starts[p + 1]` less the separator.
 */
export const pairMasksOf = (joined: string, starts: Int32Array, separatorLength: number): Int32Array => {
  const places = starts.length - 1;
  const masks = new Int32Array(places * pairMaskWords);
  for (let place = 0; place < places; place++) {
    const base = place * pairMaskWords;
    const end = (starts[place + 1] as number) - separatorLength;
    for (let at = (starts[place] as number) + 1; at < end; at++) {
      const bit = pairBit(joined.charCodeAt(at - 1), joined.charCodeAt(at));
      masks[base + (bit >>> 5)] = (masks[base + (bit >>> 5)] as number) | (1 << (bit & 31));
    }
  }
  return masks;
};

/** A word's pairs of neighbouring characters, as bits, in a list kept between words: read it before the next call. */
export const wordPairBits = (word: string): readonly number[] => {
  wordBits.length = 0;
  for (let at = 1; at < word.length; at++)
    wordBits.push(pairBit(word.charCodeAt(at - 1), word.charCodeAt(at)));
  return wordBits;
};
const wordBits: number[] = [];

/** Whether place `place` of `masks` has every one of `bits`: whether it may hold the word they are of. */
export const mayHold = (masks: Int32Array, place: number, bits: readonly number[]): boolean => {
  const base = place * pairMaskWords;
  for (const bit of bits) if (((masks[base + (bit >>> 5)] as number) & (1 << (bit & 31))) === 0) return false;
  return true;
};
