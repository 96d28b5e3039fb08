/**
 * The linear congruential generator the text benches draw their synthetic text with: numbers in [0, 1) from a
 * seed, the same sequence on every run, so recorded figures stay comparable (the arithmetic is kept exactly as
 * the benches first wrote it, rounding included).
 */
export const lcg = (seed: number): (() => number) => {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
};
