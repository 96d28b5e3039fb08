/** `numerator / denominator`, or undefined when the denominator is 0: an empty class is never NaN. */
export const ratio = (numerator: number, denominator: number): number | undefined =>
  denominator === 0 ? undefined : numerator / denominator;
