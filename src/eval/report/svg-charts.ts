import type { ReliabilityBin } from "../../calibration/reliability.js";
import { escapeHtml } from "../../report/escape-html.js";
import type { RocPoint } from "../metrics/auroc.js";

const size = 320;
const margin = 40;
const plot = size - 2 * margin;
const palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

const x = (value: number): string => (margin + value * plot).toFixed(1);
const y = (value: number): string => (size - margin - value * plot).toFixed(1);

const axes = (xLabel: string, yLabel: string): string =>
  [
    `<rect x="${margin}" y="${margin}" width="${plot}" height="${plot}" fill="none" stroke="#999"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 4"/>`,
    ...[0, 0.5, 1].flatMap((tick) => [
      `<text x="${x(tick)}" y="${size - margin + 14}" font-size="10" text-anchor="middle">${tick}</text>`,
      `<text x="${margin - 6}" y="${y(tick)}" font-size="10" text-anchor="end" dominant-baseline="middle">${tick}</text>`,
    ]),
    `<text x="${size / 2}" y="${size - 6}" font-size="11" text-anchor="middle">${escapeHtml(xLabel)}</text>`,
    `<text x="12" y="${size / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 ${size / 2})">${escapeHtml(yLabel)}</text>`,
  ].join("");

export interface RocSeries {
  readonly name: string;
  readonly points: readonly RocPoint[];
}

/** ROC curves (false positive rate against true positive rate) as an inline SVG, one polyline per series. */
export const rocCurveSvg = (series: readonly RocSeries[]): string => {
  const drawn = series.filter((entry) => entry.points.length > 0);
  const lines = drawn.map((entry, index) => {
    const color = palette[index % palette.length]!;
    const points = entry.points.map((point) => `${x(point.fpr)},${y(point.tpr)}`).join(" ");
    return `<polyline class="roc-line" data-series="${escapeHtml(entry.name)}" fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`;
  });
  const legend = drawn.map((entry, index) => {
    const top = margin + 6 + index * 14;
    return `<rect x="${x(0.55)}" y="${top}" width="10" height="10" fill="${palette[index % palette.length]!}"/><text x="${Number(x(0.55)) + 14}" y="${top + 9}" font-size="10">${escapeHtml(entry.name)}</text>`;
  });
  const empty =
    drawn.length === 0
      ? `<text x="${size / 2}" y="${size / 2}" text-anchor="middle" font-size="12">no curve: a class is empty</text>`
      : "";
  return `<svg id="roc-curve" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="ROC curve">${axes("false positive rate", "true positive rate")}${lines.join("")}${legend.join("")}${empty}</svg>`;
};

/** Reliability diagram: per confidence bin, observed share supported (bars) against the diagonal. */
export const reliabilitySvg = (bins: readonly ReliabilityBin[]): string => {
  const bars = bins
    .filter((bin) => bin.count > 0 && bin.observedSupported !== undefined)
    .map((bin) => {
      const height = bin.observedSupported! * plot;
      const width = (bin.upper - bin.lower) * plot;
      return `<rect class="reliability-bar" x="${x(bin.lower)}" y="${y(bin.observedSupported!)}" width="${(width - 2).toFixed(1)}" height="${height.toFixed(1)}" fill="#1f77b4" fill-opacity="0.7"><title>${bin.lower.toFixed(1)}-${bin.upper.toFixed(1)}: ${bin.count} records, mean confidence ${bin.meanConfidence!.toFixed(3)}, observed ${bin.observedSupported!.toFixed(3)}</title></rect>`;
    });
  const points = bins
    .filter((bin) => bin.count > 0)
    .map(
      (bin) =>
        `<circle cx="${x(bin.meanConfidence!)}" cy="${y(bin.observedSupported!)}" r="3" fill="#d62728"/>`,
    );
  return `<svg id="reliability-diagram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="Reliability diagram">${axes("overallConfidence", "observed share supported")}${bars.join("")}${points.join("")}</svg>`;
};
