import { existsSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalRun } from "../runner.js";
import { renderHtmlReport } from "./html-report.js";
import { buildReport } from "./json-report.js";
import { samplePrediction } from "./test-predictions.js";

const chromiumPath = "/usr/bin/chromium";
const hasChromium = existsSync(chromiumPath);
const title = hasChromium
  ? "HTML report in headless Chromium"
  : `HTML report in headless Chromium (SKIPPED: ${chromiumPath} is not installed; apt-get install -y chromium)`;

const artifacts = resolve(import.meta.dirname, "../../../test-artifacts");

// Two datasets, both classes in each, so there are three ROC curves (overall + 2) and filled bins.
const predictions = [
  samplePrediction({
    id: "a1",
    dataset: "alpha",
    label: "hallucinated",
    score: 0.9,
    response: "The tower was built in 1823 by Leonardo.",
    flaggedClaims: [
      {
        span: { start: 0, end: 40 },
        verdict: "contradicted",
        text: "The tower was built in 1823 by Leonardo.",
        issues: ["1823 not in sources"],
      },
    ],
    goldSpans: [{ start: 23, end: 27 }],
  }),
  samplePrediction({
    id: "a2",
    dataset: "alpha",
    label: "hallucinated",
    score: 0.3,
    response: "Sales rose 40% <b>in</b> 2019.",
    goldSpans: [{ start: 11, end: 14 }],
  }),
  samplePrediction({ id: "a3", dataset: "alpha", label: "supported", score: 0.2 }),
  samplePrediction({ id: "a4", dataset: "alpha", label: "supported", score: 0.6 }),
  samplePrediction({ id: "b1", dataset: "beta", label: "hallucinated", score: 0.8 }),
  samplePrediction({ id: "b2", dataset: "beta", label: "supported", score: 0.1 }),
  samplePrediction({ id: "b3", dataset: "beta", label: "supported", score: 0.45 }),
];

describe.skipIf(!hasChromium)(title, () => {
  let browser: Browser;
  let reportUrl: string;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-html-"));
    const run: EvalRun = {
      files: ["alpha.jsonl", "beta.jsonl"],
      predictions,
      malformed: [],
      tuning: undefined,
    };
    const path = join(dir, "report.html");
    await writeFile(path, renderHtmlReport(buildReport(run), predictions));
    reportUrl = pathToFileURL(path).href;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("renders the ROC curve, reliability diagram, tables and highlighted misses; saves a screenshot", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(reportUrl);

    const roc = page.locator("svg#roc-curve");
    expect(await roc.isVisible()).toBe(true);
    expect(await roc.locator("polyline.roc-line").count()).toBe(3);
    const rocBox = await roc.boundingBox();
    expect(rocBox?.width).toBeGreaterThan(100);
    expect(await page.locator("svg#reliability-diagram rect.reliability-bar").count()).toBeGreaterThan(0);

    expect(await page.locator("#dataset-table tbody tr").count()).toBe(2);
    expect(await page.locator("#dataset-table tbody tr").first().locator("th").textContent()).toBe("alpha");
    expect(await page.locator("#overall-table tbody tr").count()).toBe(1);
    expect(await page.locator("#task-table").isVisible()).toBe(true);

    // a2 is a missed hallucination; its markup-like text is shown as text, its gold span highlighted.
    const missed = page.locator("#missed-hallucinations .miss");
    expect(await missed.count()).toBe(1);
    expect(await missed.locator("mark.gold").textContent()).toBe("40%");
    expect(await missed.locator(".response").textContent()).toContain("<b>in</b>");
    expect(await page.locator("#false-alarms .miss").count()).toBe(1);

    // Self-contained: nothing but the file itself was requested.
    expect(requests).toEqual([reportUrl]);

    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, "eval-report.png"), fullPage: true });
    expect(existsSync(join(artifacts, "eval-report.png"))).toBe(true);
    await page.close();
  });
});
