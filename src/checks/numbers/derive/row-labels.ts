/**
 * The row labels a line of prose holds, as `line.includes(label)` would find them, in time linear in the line:
 * labels are looked up by their first four characters at each place of the line, instead of searching the
 * line once per label (a filing's thousands of labels against its thousands of lines). Remembered per line.
 */
export const labelFinder = (labels: readonly string[]) => {
  const byStart = new Map<string, string[]>();
  // The labels' first two characters as numbers: most places of a line start no label, and are passed over
  // without cutting their four characters out (a new string per character of every line).
  const firstTwo = new Set<number>();
  const pairAt = (text: string, at: number) => text.charCodeAt(at) * 65_536 + text.charCodeAt(at + 1);
  // Before that look-up, one bit per ASCII character some label starts with (row labels mostly start with a
  // capital, which few places of prose hold): a place whose character has no bit is passed over with a
  // mask test instead of a set's hashed look-up. A label starting outside ASCII turns the filter off.
  const firstMasks = [0, 0, 0, 0];
  let anyFirst = false;
  for (const label of labels) {
    const key = label.slice(0, 4);
    const list = byStart.get(key);
    if (list) list.push(label);
    else byStart.set(key, [label]);
    firstTwo.add(pairAt(label, 0));
    const first = label.charCodeAt(0);
    if (first < 128) firstMasks[first >> 5] = (firstMasks[first >> 5] as number) | (1 << (first & 31));
    else anyFirst = true;
  }
  const mayStartLabel = (code: number): boolean =>
    code < 128 ? ((firstMasks[code >> 5] as number) & (1 << (code & 31))) !== 0 : anyFirst;
  const found = new Map<string, readonly string[]>();
  return (line: string): readonly string[] => {
    const known = found.get(line);
    if (known) return known;
    const held = new Set<string>();
    for (let at = 0; at + 4 <= line.length; at++) {
      if (!mayStartLabel(line.charCodeAt(at)) || !firstTwo.has(pairAt(line, at))) continue;
      for (const label of byStart.get(line.slice(at, at + 4)) ?? [])
        if (line.startsWith(label, at)) held.add(label);
    }
    const list = [...held];
    found.set(line, list);
    return list;
  };
};
