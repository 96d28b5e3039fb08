import type { PendingMemory } from "../../memory/store/records.js";
import { escapeHtml } from "../../report/html.js";
import { renderPage } from "./layout.js";

const list = (items: readonly string[], empty: string, className = ""): string =>
  items.length === 0
    ? `<span>${empty}</span>`
    : `<ul${className ? ` class="${className}"` : ""}>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;

const renderItem = (item: PendingMemory, index: number): string => {
  const id = escapeHtml(item.queueId);
  const headingId = `item-${index}`;
  const evidence = item.evidence;
  return `<section class="item" aria-labelledby="${headingId}" data-queue-id="${id}">
<h3 id="${headingId}">${escapeHtml(item.content)}</h3>
<dl>
<dt>Tier reason</dt><dd>${escapeHtml(item.validation.reason)}</dd>
<dt>Failed checks</dt><dd>${list(item.validation.checksFailed, "none", "failed")}</dd>
<dt>Passed checks</dt><dd>${list(item.validation.checksPassed, "none")}</dd>
<dt>Evidence</dt><dd>${escapeHtml(evidence.sourceId ?? "no citation")}; confidence ${escapeHtml(evidence.confidence)}; captured ${escapeHtml(evidence.captureTime.toISOString())}</dd>
<dt>Source</dt><dd>${escapeHtml(item.source)} (${escapeHtml(item.memoryType)})</dd>
<dt>Submitted</dt><dd>${escapeHtml(item.submittedAt.toISOString())}</dd>
</dl>
<div class="actions">
<form method="post" action="/ui/review/${encodeURIComponent(item.queueId)}/approve">
<button class="approve" type="submit" aria-label="Approve: ${escapeHtml(item.content)}">Approve</button>
</form>
<form method="post" action="/ui/review/${encodeURIComponent(item.queueId)}/reject">
<label for="reason-${index}">Reason for rejecting</label>
<textarea id="reason-${index}" name="reason" rows="2" maxlength="2000" required></textarea>
<p><button class="reject" type="submit" aria-label="Reject: ${escapeHtml(item.content)}">Reject</button></p>
</form>
</div>
</section>`;
};

const notices: Record<string, string> = {
  approved: "Approved: the memory is stored.",
  rejected: "Rejected: the item left the queue.",
  gone: "That item is no longer pending (already decided, or not yours).",
};

export const renderQueuePage = (userId: string, items: readonly PendingMemory[], notice?: string): string => {
  const message = notice === undefined ? undefined : notices[notice];
  return renderPage({
    title: "Pending queue",
    userId,
    body: `${message === undefined ? "" : `<p class="notice" role="status">${escapeHtml(message)}</p>`}
<p>${items.length === 0 ? "Nothing is waiting for your decision." : `${items.length} claim${items.length === 1 ? "" : "s"} waiting for your decision.`}</p>
${items.map(renderItem).join("\n")}`,
  });
};
