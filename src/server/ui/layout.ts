import { claimsStyle, escapeHtml } from "../../report/html.js";
import { narrowScreenStyle } from "../../report/narrow-screen-style.js";

/** Colours meet WCAG AA contrast on white; focus is always visible; every control has a label. */
const style = `
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#111;background:#fff;line-height:1.5}
a{color:#0b4f9c}a:focus,button:focus,input:focus,textarea:focus{outline:3px solid #f5a623;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header{background:#1d2b3a;color:#fff;padding:.5rem 1rem;display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap}
header a{color:#fff}header nav ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0}
header form{margin-left:auto}
main{max-width:70rem;margin:0 auto;padding:1rem}
.item{border:1px solid #888;border-radius:6px;padding:1rem;margin:1rem 0}
.item h3{margin-top:0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
textarea,input[type=password],input[type=text]{width:100%;font:inherit;padding:.4rem;border:1px solid #555;border-radius:4px}
button{font:inherit;padding:.4rem 1rem;border-radius:4px;border:1px solid #222;cursor:pointer}
button.approve{background:#1a6b34;color:#fff}button.reject{background:#a11;color:#fff}button.primary{background:#0b4f9c;color:#fff}
.actions{display:flex;gap:2rem;flex-wrap:wrap;align-items:flex-start}
.notice{background:#e6f0fb;border-left:4px solid #0b4f9c;padding:.5rem 1rem}
.error{background:#fdecec;border-left:4px solid #a11;padding:.5rem 1rem}
.failed{color:#8a1010}
.answer{white-space:pre-wrap;border:1px solid #888;padding:1rem;border-radius:6px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #bbb;padding:.4rem;text-align:left;vertical-align:top}
blockquote{margin:0;padding-left:.5rem;border-left:3px solid #666}
${claimsStyle}
${narrowScreenStyle}
`;

export interface PageOptions {
  readonly title: string;
  readonly body: string;
  /** The signed-in user; absent on the login page. */
  readonly userId?: string;
}

export const renderPage = ({ title, body, userId }: PageOptions): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Veracity review</title><style>${style}</style></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><strong>Veracity review</strong>${
  userId === undefined
    ? ""
    : `<nav aria-label="Main"><ul><li><a href="/ui">Pending queue</a></li><li><a href="/ui/playground">Playground</a></li><li><a href="/ui/audit">Audit</a></li></ul></nav>
<form method="post" action="/ui/logout"><span>Signed in as <strong>${escapeHtml(userId)}</strong></span> <button type="submit">Sign out</button></form>`
}</header>
<main id="main" tabindex="-1"><h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
