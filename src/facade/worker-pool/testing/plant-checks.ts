/**
 * Made-up checks that keep a worker busy for a while, for tests about the order calls run in: a source of
 * `sourceSentences` plant records, and for each index an answer of `answerSentences` claims about consecutive
 * plants, each figure a little off the source's. The more of both, the longer a check takes.
 */
export const plantChecks = (sourceSentences: number, answerSentences: number) => {
  const source = Array.from(
    { length: sourceSentences },
    (_, index) =>
      `Plant ${index} in region ${index % 17} shipped ${index * 37} units in ${1990 + (index % 30)}.`,
  ).join(" ");
  return (index: number) => ({
    text: Array.from(
      { length: answerSentences },
      (_, plant) => `Plant ${index + plant} shipped ${(index + plant) * 37 + 1} units in ${2001 + plant}.`,
    ).join(" "),
    sources: [source],
  });
};
