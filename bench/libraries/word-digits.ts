/**
 * `number` written as three words of `words`, least significant first (its digits in base `words.length`): the
 * benches name payloads and rounds this way in the text they send, so a name adds no figure for the numbers layer
 * to read. Distinct for every number below `words.length ** 3`.
 */
export const threeWords = (number: number, words: readonly string[]): [string, string, string] => {
  const word = (place: number) => words[Math.floor(number / words.length ** place) % words.length] as string;
  return [word(0), word(1), word(2)];
};
