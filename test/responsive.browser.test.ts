import { existsSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtmlReport as renderEvalReport } from "../src/eval/report/html-report.js";
import { buildReport } from "../src/eval/report/json-report.js";
import { samplePrediction } from "../src/eval/report/test-predictions.js";
import { createVerifier } from "../src/facade/create-verifier.js";
import { renderHtmlReport as renderCheckReport } from "../src/report/html.js";
import { startTestServer, type TestServer } from "../src/server/testing/test-server.js";

/**
 * The review UI and both HTML reports on a 375 px phone and a 1280 px desktop, in real Chromium: the page
 * must not scroll sideways, and every button and field must lie within the screen and be large enough to
 * tap (24 px, WCAG 2.2's minimum target size).
 */
const chromiumPath = "/usr/bin/chromium";
const hasChromium = existsSync(chromiumPath);
const artifacts = resolve(import.meta.dirname, "../test-artifacts");
const widths = [375, 1280] as const;

const longClaim =
  "The payments-service-event-publisher-with-an-unbroken-identifier-that-is-very-long publishes to Kafka topic payments-v2-eu-west-1-production-primary";

describe.skipIf(!hasChromium)("responsive pages in headless Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  let key: string;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    server = await startTestServer();
    key = await server.createApiKey("reviewer-on-a-phone");
    const queued = await server.call("POST", "/v1/memory/ingest", {
      key,
      body: { content: longClaim, memoryType: "fact", source: "conversation" },
    });
    expect(queued.status).toBe(202);

    const dir = await mkdtemp(join(tmpdir(), "veracity-responsive-"));
    const verifier = createVerifier();
    const answer = `${longClaim}. Revenue rose 12% to $4.2 million in Q2 2025.`;
    const result = await verifier.verify({
      text: answer,
      sources: ["In the third quarter of 2025, revenue rose 12% to $4.2 million."],
    });
    await verifier.close();
    files.check = join(dir, "check.html");
    await writeFile(files.check, renderCheckReport(answer, result, ["quarterly-report-2025-q3.md"]));
    const predictions = [
      samplePrediction({ id: "a1", dataset: "alpha", label: "hallucinated", score: 0.9, response: answer }),
      samplePrediction({ id: "a2", dataset: "alpha", label: "supported", score: 0.2 }),
      samplePrediction({
        id: "b1",
        dataset: "beta-with-a-long-dataset-name",
        label: "hallucinated",
        score: 0.7,
      }),
      samplePrediction({
        id: "b2",
        dataset: "beta-with-a-long-dataset-name",
        label: "supported",
        score: 0.4,
      }),
    ];
    files.eval = join(dir, "eval.html");
    await writeFile(
      files.eval,
      renderEvalReport(
        buildReport({ files: ["alpha.jsonl", "beta.jsonl"], predictions, malformed: [], tuning: undefined }),
        predictions,
      ),
    );
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const signedIn = async (width: number): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${server.url}/ui/login`);
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Pending queue" }).waitFor();
    return page;
  };

  /** What a reader of that width cannot use: sideways scroll, controls off screen or too small to tap. */
  const layoutProblems = (page: Page) =>
    page.evaluate<string[]>(`(() => {
      const problems = [];
      const width = document.documentElement.clientWidth;
      if (document.documentElement.scrollWidth > width)
        problems.push("page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
      for (const control of document.querySelectorAll("button, input:not([type=hidden]), textarea, select, a.button")) {
        const box = control.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        const name = control.outerHTML.slice(0, 60);
        if (box.left < 0 || box.right > width) problems.push("off screen: " + name);
        if (box.height < 24 || box.width < 24) problems.push("too small (" + Math.round(box.width) + "x" + Math.round(box.height) + "): " + name);
      }
      return problems;
    })()`);

  it.each(widths)(
    "the review queue with an item fits %i px",
    async (width) => {
      const page = await signedIn(width);
      await page.locator("section.item", { hasText: "Kafka topic" }).waitFor();
      expect(
        await page
          .getByRole("button", { name: /approve/i })
          .first()
          .isVisible(),
      ).toBe(true);
      await page.screenshot({ path: resolve(artifacts, `review-queue-${width}.png`), fullPage: true });
      expect(await layoutProblems(page)).toEqual([]);
      await page.close();
    },
    60_000,
  );

  it.each(widths)(
    "the playground and the audit page fit %i px",
    async (width) => {
      const page = await signedIn(width);
      for (const path of ["/ui/playground", "/ui/audit"]) {
        await page.goto(`${server.url}${path}`);
        expect(await layoutProblems(page), path).toEqual([]);
      }
      await page.close();
    },
    60_000,
  );

  it.each(widths)(
    "the check and eval HTML reports fit %i px",
    async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      for (const name of ["check", "eval"]) {
        await page.goto(pathToFileURL(files[name] ?? "").href);
        await page.screenshot({ path: resolve(artifacts, `${name}-report-${width}.png`), fullPage: true });
        expect(await layoutProblems(page), name).toEqual([]);
      }
      await page.close();
    },
    60_000,
  );
});
