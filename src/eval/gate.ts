import type { GroupMetrics } from "./metrics/summary.js";

/** Quality bars a CI run must meet; an absent bar is not checked. */
export interface QualityBars {
  readonly minBalancedAccuracy?: number;
  readonly maxFpr?: number;
  readonly minAuroc?: number;
}

export interface GateOutcome {
  readonly passed: boolean;
  /** One line per bar missed, naming the metric, its value and the bar. */
  readonly misses: readonly string[];
}

const format = (value: number): string => value.toFixed(4);

const checkBar = (
  name: string,
  value: number | undefined,
  bar: number | undefined,
  direction: "min" | "max",
): string | undefined => {
  if (bar === undefined) return undefined;
  // A metric that could not be computed (an empty class) never meets a bar: fail closed.
  if (value === undefined)
    return `${name} is undefined (a class is empty), bar ${direction} ${format(bar)} not met`;
  if (direction === "min" && value < bar)
    return `${name} ${format(value)} is below the minimum ${format(bar)}`;
  if (direction === "max" && value > bar)
    return `${name} ${format(value)} is above the maximum ${format(bar)}`;
  return undefined;
};

/** Checks the overall metrics of a run against the bars. */
export const checkGate = (metrics: GroupMetrics, bars: QualityBars): GateOutcome => {
  const misses = [
    checkBar("balanced accuracy", metrics.balancedAccuracy, bars.minBalancedAccuracy, "min"),
    checkBar("false positive rate", metrics.fpr, bars.maxFpr, "max"),
    checkBar("AUROC", metrics.auroc, bars.minAuroc, "min"),
  ].filter((miss): miss is string => miss !== undefined);
  return { passed: misses.length === 0, misses };
};
