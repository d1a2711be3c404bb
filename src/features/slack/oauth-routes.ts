// Slack OAuth install routes: GET /slack/install (a policy:admin token → 302 to Slack) and GET /slack/oauth/callback.
import { Hono } from "hono";
import { AppFailure } from "../../errors";
import { authenticate, requireScope } from "../../http/middleware";
import type { FeatureEnv } from "../../http/types";
import type { SlackNeeds } from "./needs";
import { CALLBACK_PATH, completeInstall, startInstall } from "./oauth";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** What the browser shows after a good install: the next step is channels and roster (docs/slack.md). */
const grantedPage = (g: { workspace_id: string; workspace_name: string | null; team_id: string }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Warden installed in Slack</title></head>
<body><h1>Warden is installed in ${escapeHtml(g.workspace_name ?? g.workspace_id)}</h1>
<p>Workspace <code>${escapeHtml(g.workspace_id)}</code> now belongs to Warden team <code>${escapeHtml(g.team_id)}</code>.
Nothing is posted yet: set the control, approvals, feed and ops channels and the approver roster with
<code>PUT /v1/slack/installation</code> (no <code>bot_token</code> needed), as docs/slack.md describes.</p></body></html>`;

export const slackOAuthRoutes = new Hono<FeatureEnv<SlackNeeds>>()
  // Not under /v1 (a link humans follow), so the route authenticates itself: only a team admin starts an install.
  .get("/slack/install", authenticate, requireScope("policy:admin"), async (c) => {
    const r = await startInstall(c.env.deps, c.get("principal"));
    if (!r.ok) throw new AppFailure(r.error);
    return c.redirect(r.value.url, 302);
  })
  .get(CALLBACK_PATH, async (c) => {
    const q = c.req.query();
    const r = await completeInstall(c.env.deps, { code: q.code, state: q.state, error: q.error });
    if (!r.ok) throw new AppFailure(r.error);
    return c.html(grantedPage(r.value), 200);
  });
