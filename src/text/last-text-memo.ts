/**
 * `compute`, remembered for the last text it was asked about. The figures of one line or table row follow each
 * other and ask with the same string, which is compared by reference at once. The text kept is always the one
 * just asked about, even when it equals the one before by content: two equal strings that are not one string
 * compare character by character, and keeping the older one made each figure of a second, equal line (the same
 * paragraph in two sources) read that whole line again.
 */
export const lastTextMemo = <T>(compute: (text: string) => T): ((text: string) => T) => {
  let lastText: string | undefined;
  let lastValue: T | undefined;
  return (text) => {
    if (text !== lastText) lastValue = compute(text);
    lastText = text;
    return lastValue as T;
  };
};
