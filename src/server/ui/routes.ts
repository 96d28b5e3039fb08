import { type Context, Hono, type MiddlewareHandler } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { ServerDeps } from "../deps.js";
import type { ServerEnv } from "../env.js";
import { makeKeyLookups } from "../keys/api-keys.js";
import { authenticate, sessionCookieName } from "../middleware/auth/index.js";
import { limitBody } from "../middleware/body-limit/index.js";
import { requireSameOrigin } from "../middleware/csrf/index.js";
import { limitRate, type RateLimit } from "../middleware/rate-limit/index.js";
import { queueIdParam } from "../queue-id.js";
import { approveItem, rejectItem } from "../review-decisions.js";
import { renderAuditPage } from "./audit-page.js";
import { renderLoginPage } from "./login-page.js";
import {
  type PlaygroundInput,
  playgroundExample,
  renderPlaygroundPage,
  splitPastedSources,
} from "./playground-page.js";
import { renderQueuePage } from "./queue-page.js";

const field = (form: Record<string, unknown>, name: string): string => {
  const value = form[name];
  return typeof value === "string" ? value : "";
};

/**
 * Largest sign-in form: it carries one API key and is read before anyone is authenticated, so it gets a few
 * kilobytes, not the API's body limit.
 */
export const maxLoginFormBytes = 4_096;

const isNotFound = (error: unknown) => (error as { _tag?: string })._tag === "ReviewItemNotFoundError";

/**
 * The review UI: server-rendered pages and plain forms (Post/Redirect/Get), no script. Signing in stores the
 * API key in an HttpOnly, SameSite=Strict cookie; state-changing requests from other origins are refused (CSRF),
 * and agent keys cannot sign in. `holds` are what a signed-in request holds while it is answered, as an API
 * request does: a slot of its key's and its body's bytes in the server's totals.
 */
export const uiRoutes = (
  deps: ServerDeps,
  rateLimit: RateLimit,
  holds: readonly MiddlewareHandler<ServerEnv>[],
) => {
  const ui = new Hono<ServerEnv>();
  // Sign-in attempts of one turn share a statement, as the API's keys do: made-up keys cost a statement a turn.
  const lookUpKey = makeKeyLookups(deps.sql);
  ui.use("*", requireSameOrigin());
  ui.get("/login", (context) => context.html(renderLoginPage()));
  ui.post("/login", limitBody(maxLoginFormBytes), async (context) => {
    const key = field(await context.req.parseBody(), "key").trim();
    const found = key === "" ? undefined : await lookUpKey(key);
    if (found === undefined) return context.html(renderLoginPage("That API key is unknown or revoked."), 401);
    // Reviewing is a person's job: an agent's key cannot sign in to approve what agents wrote.
    if (found.kind === "agent")
      return context.html(renderLoginPage("That is an agent key; sign in with a reviewer's key."), 403);
    setCookie(context, sessionCookieName, key, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/ui",
      secure: new URL(context.req.url).protocol === "https:",
      maxAge: 8 * 60 * 60,
    });
    return context.redirect("/ui", 303);
  });
  ui.post("/logout", (context) => {
    deleteCookie(context, sessionCookieName, { path: "/ui" });
    return context.redirect("/ui/login", 303);
  });

  const signedIn = new Hono<ServerEnv>();
  signedIn.use(
    "*",
    authenticate(deps.sql, "cookie", (context: Context) => context.redirect("/ui/login", 303)),
  );
  signedIn.use("*", limitRate(deps.sql, rateLimit));
  signedIn.use("*", ...holds);
  signedIn.get("/", async (context) => {
    const userId = context.get("userId");
    const items = await deps.memory.pending(userId, 100);
    return context.html(renderQueuePage(userId, items, context.req.query("notice")));
  });
  signedIn.post("/review/:queueId/approve", async (context) => {
    try {
      await approveItem(deps, queueIdParam(context), context.get("userId"));
      return context.redirect("/ui?notice=approved", 303);
    } catch (error) {
      if (isNotFound(error)) return context.redirect("/ui?notice=gone", 303);
      throw error;
    }
  });
  signedIn.post("/review/:queueId/reject", async (context) => {
    const reason = field(await context.req.parseBody(), "reason").trim();
    if (reason === "") return context.redirect("/ui", 303);
    try {
      await rejectItem(deps, queueIdParam(context), context.get("userId"), reason.slice(0, 2_000));
      return context.redirect("/ui?notice=rejected", 303);
    } catch (error) {
      if (isNotFound(error)) return context.redirect("/ui?notice=gone", 303);
      throw error;
    }
  });
  signedIn.get("/playground", (context) => {
    const input = context.req.query("example") ? playgroundExample : { answer: "", sources: "" };
    return context.html(renderPlaygroundPage(context.get("userId"), input));
  });
  signedIn.post("/playground", async (context) => {
    const form = await context.req.parseBody();
    const input: PlaygroundInput = { answer: field(form, "answer"), sources: field(form, "sources") };
    const sources = splitPastedSources(input.sources)
      .map((source) => source.trim())
      .filter((source) => source.length > 0)
      .slice(0, 100);
    if (input.answer.trim() === "" || sources.length === 0)
      return context.html(
        renderPlaygroundPage(
          context.get("userId"),
          input,
          undefined,
          "Give an answer and at least one source.",
        ),
        400,
      );
    const result = await deps.checker.verify({ text: input.answer, sources });
    await deps.auditTrail?.verification(
      context.get("userId"),
      { text: input.answer, sources },
      { result },
      "/ui/playground",
    );
    return context.html(renderPlaygroundPage(context.get("userId"), input, result));
  });
  signedIn.get("/audit", async (context) => {
    const userId = context.get("userId");
    return context.html(renderAuditPage(userId, await deps.memory.audit(userId, 200)));
  });
  ui.route("/", signedIn);
  return ui;
};
