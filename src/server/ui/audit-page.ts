import type { AuditEntry } from "../../memory/store/records.js";
import { escapeHtml } from "../../report/html.js";
import { renderPage } from "./layout.js";

/** The review actions the memory queue records for the signed-in user, newest first. */
export const renderAuditPage = (userId: string, entries: readonly AuditEntry[]): string =>
  renderPage({
    title: "Audit",
    userId,
    body:
      entries.length === 0
        ? "<p>No recorded actions yet.</p>"
        : `<table><caption>Review actions on your memories</caption>
<thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">By</th><th scope="col">Item</th><th scope="col">Reason</th></tr></thead>
<tbody>${[...entries]
            .reverse()
            .map(
              (entry) =>
                `<tr><td>${escapeHtml(entry.at.toISOString())}</td><td>${escapeHtml(entry.action)}</td><td>${escapeHtml(entry.actor)}</td><td><code>${escapeHtml(entry.queueId ?? entry.memoryId ?? "")}</code></td><td>${escapeHtml(entry.reason ?? "")}</td></tr>`,
            )
            .join("")}</tbody></table>`,
  });
