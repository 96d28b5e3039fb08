/** One call of the calculator tool, as recorded while an answer was written. */
export interface RecordedCalculation {
  readonly expression: string;
  readonly result: string;
}

/**
 * Collects calculator calls so validation knows which numbers came from the tool. Bounded: past `limit`
 * calls, the oldest are dropped.
 */
export class CalculationRecorder {
  private readonly calls: RecordedCalculation[] = [];
  constructor(private readonly limit = 1_000) {}

  /** Records one calculator call, dropping the oldest once more than `limit` are held. */
  record(call: RecordedCalculation): void {
    this.calls.push(call);
    if (this.calls.length > this.limit) this.calls.shift();
  }

  /** The calls recorded so far, oldest first (a copy: later calls do not change it). */
  get recorded(): readonly RecordedCalculation[] {
    return [...this.calls];
  }

  /** Forgets every recorded call, e.g. before the next answer is written. */
  clear(): void {
    this.calls.length = 0;
  }
}
