import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.js";

const chromiumPath = "/usr/bin/chromium";
const hasChromium = existsSync(chromiumPath);
const title = hasChromium
  ? "review UI in headless Chromium"
  : `review UI in headless Chromium (SKIPPED: ${chromiumPath} is not installed; apt-get install -y chromium)`;
const artifacts = resolve(import.meta.dirname, "../../../test-artifacts");

const approveClaim = "The payments service publishes events to Kafka topic payments-v2";
const rejectClaim = "The search cluster keeps fourteen days of query logs";

describe.skipIf(!hasChromium)(title, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;

  beforeAll(async () => {
    await mkdir(artifacts, { recursive: true });
    server = await startTestServer();
    key = await server.createApiKey("reviewer-ruth");
    for (const content of [approveClaim, rejectClaim]) {
      const queued = await server.call("POST", "/v1/memory/ingest", {
        key,
        body: { content, memoryType: "fact", source: "conversation" },
      });
      expect(queued.status).toBe(202);
    }
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
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("refuses a wrong key with an alert, then signs in with the keyboard", async () => {
    await page.goto(`${server.url}/ui`);
    await expect.poll(() => page.url()).toContain("/ui/login");
    await page.getByLabel("API key").fill("vk_wrong");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("unknown or revoked");
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Pending queue" }).waitFor();
    expect(await page.getByText("Signed in as").textContent()).toContain("reviewer-ruth");
  }, 60_000);

  it("shows each pending claim with its tier reason, checks and evidence; every field has a label", async () => {
    for (const content of [approveClaim, rejectClaim])
      await page.getByRole("heading", { name: content }).waitFor();
    const item = page.locator("section.item", { hasText: approveClaim });
    expect(await item.getByText("Tier reason").count()).toBe(1);
    expect(await item.locator("dd").first().textContent()).toMatch(/\S/);
    expect(await item.getByText("Failed checks").count()).toBe(1);
    expect(await item.getByText("Evidence").count()).toBe(1);
    const unlabeled = await page.evaluate<number>(
      "[...document.querySelectorAll('input, textarea')].filter((field) => field.labels.length === 0).length",
    );
    expect(unlabeled).toBe(0);
    await page.screenshot({ path: resolve(artifacts, "review-queue.png"), fullPage: true });
  }, 60_000);

  it("approves one claim", async () => {
    await page.getByRole("button", { name: `Approve: ${approveClaim}` }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Approved");
    expect(await page.getByRole("heading", { name: approveClaim }).count()).toBe(0);
  }, 60_000);

  it("rejects another with a reason", async () => {
    const item = page.locator("section.item", { hasText: rejectClaim });
    await item.getByLabel("Reason for rejecting").fill("Query logs are kept for seven days");
    await item.getByRole("button", { name: `Reject: ${rejectClaim}` }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain("Rejected");
    expect(await page.getByText("Nothing is waiting for your decision.").count()).toBe(1);
    await page.screenshot({ path: resolve(artifacts, "review-after-decisions.png"), fullPage: true });

    const audit = await server.call("GET", "/v1/audit", { key });
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: "approve", actor: "reviewer-ruth" }),
    );
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: "reject", reason: "Query logs are kept for seven days" }),
    );
    const search = await server.call("POST", "/v1/memory/search", { key, body: { query: "Kafka payments" } });
    expect(search.body.hits).toHaveLength(1);
  }, 60_000);

  it("lists the decisions in the audit view", async () => {
    await page.getByRole("link", { name: "Audit" }).click();
    await page.getByRole("heading", { name: "Audit" }).waitFor();
    const rows = await page.locator("tbody tr").allTextContents();
    expect(rows.some((row) => row.includes("reject") && row.includes("seven days"))).toBe(true);
    expect(rows.some((row) => row.includes("approve"))).toBe(true);
  }, 60_000);

  it("runs the playground on the example and highlights the unsupported claim", async () => {
    await page.getByRole("link", { name: "Playground" }).click();
    await page.getByRole("link", { name: "Load an example" }).click();
    expect(await page.getByLabel("Answer").inputValue()).toContain("Leonardo");
    await page.getByRole("button", { name: "Verify" }).click();
    const unsupported = page.locator("mark.claim.unsupported");
    await unsupported.first().waitFor();
    expect(await unsupported.first().textContent()).toContain("Leonardo da Vinci");
    expect(await page.locator("mark.claim.supported").count()).toBeGreaterThan(0);
    expect(await page.locator("table").textContent()).toContain("unsupported");
    await page.screenshot({ path: resolve(artifacts, "review-playground.png"), fullPage: true });
  }, 60_000);

  it("signs out", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.goto(`${server.url}/ui`);
    await expect.poll(() => page.url()).toContain("/ui/login");
  }, 60_000);
});
