// How focusing cuts a text into passages: blocks between blank lines, short ones joined to the ones after them,
// long ones cut near a line end.

/** A stretch of one source, by its place in the evidence and its offsets. */
export interface Passage {
  readonly source: number;
  readonly start: number;
  readonly end: number;
}

// A passage is a block between blank lines, cut at a line end (or, failing that, a sentence end) when longer.
const longestPassage = 4_000;

/**
 * Blocks shorter than this join the blocks after them into one passage (a heading its table, a caption its
 * figure, the short lines of a transcript each other), so a text of tiny blocks still makes few passages: 10 MB
 * of three-character blocks made 3.3 million, and took seconds and hundreds of megabytes to score.
 */
const shortestPassage = 64;

/**
 * The passages of one text: blocks between blank lines, short blocks joined to the ones after them until the
 * passage reaches `shortestPassage` characters, long blocks cut near `longestPassage` characters.
 */
export const passagesOf = (text: string, source: number): Passage[] => {
  const passages: Passage[] = [];
  const push = (start: number, end: number) => {
    let from = start;
    while (end - from > longestPassage) {
      const window = text.slice(from, from + longestPassage);
      let cut = window.lastIndexOf("\n");
      if (cut < longestPassage / 4) cut = window.lastIndexOf(". ") + 1;
      if (cut < longestPassage / 4) cut = longestPassage;
      passages.push({ source, start: from, end: from + cut });
      from += cut;
    }
    if (end > from) passages.push({ source, start: from, end });
  };
  // Where the short blocks waiting to join the next one start and end; -1 when none waits.
  let heldFrom = -1;
  let heldTo = -1;
  const block = (start: number, end: number) => {
    if (end <= start) return;
    const from = heldFrom >= 0 ? heldFrom : start;
    if (end - from < shortestPassage) {
      heldFrom = from;
      heldTo = end;
      return;
    }
    heldFrom = -1;
    push(from, end);
  };
  // Blank lines (a line break, spaces, tabs or carriage returns, a line break), found without a match object
  // per line: a 10 MB source holds hundreds of thousands of them.
  let start = 0;
  for (let at = text.indexOf("\n"); at >= 0; ) {
    let next = at + 1;
    for (
      let code = text.charCodeAt(next);
      code === 32 || code === 9 || code === 13;
      code = text.charCodeAt(next)
    )
      next += 1;
    if (text.charCodeAt(next) === 10) {
      block(start, at);
      start = next + 1;
      at = text.indexOf("\n", start);
    } else at = text.indexOf("\n", at + 1);
  }
  block(start, text.length);
  // Short blocks at the end, with nothing after them to join: a passage of their own.
  if (heldFrom >= 0) push(heldFrom, heldTo);
  return passages;
};
