import { escapeHtml } from "../../report/html.js";
import { renderPage } from "./layout.js";

export const renderLoginPage = (error?: string): string =>
  renderPage({
    title: "Sign in",
    body: `${error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(error)}</p>`}
<p>Sign in with your API key (from <code>veracity serve keys create --user &lt;id&gt;</code>). It is kept in a cookie scripts cannot read.</p>
<form method="post" action="/ui/login">
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required>
<p><button class="primary" type="submit">Sign in</button></p>
</form>`,
  });
