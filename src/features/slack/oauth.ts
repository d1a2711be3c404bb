// Slack's OAuth v2 install (use-cases): an admin's start → Slack's authorize URL with a signed state; Slack's redirect
// back → state and code checked, the code exchanged (oauth.v2.access), the workspace's grant recorded for the team.
import type { Principal } from "../../auth/tokens";
import type { AppError } from "../../errors";
import { err, ok, type Result } from "../../lib/result";
import type { AuditLogStore } from "../../ports/audit-log";
import type { Clock } from "../../ports/clock";
import type { SlackOAuthApi } from "../../ports/slack-oauth";
import { teamWideProposer } from "../gates";
import { authorizeUrl, STATE_TTL_MS, signState, verifyState } from "./oauth-state";
import type { SlackStore } from "./store/slack-store-port";

/** The bot scopes the install asks for: exactly those of slack/manifest.yaml (a unit test holds them equal). */
export const SLACK_BOT_SCOPES = ["chat:write", "commands", "channels:history", "groups:history", "im:history"] as const;

export type SlackOAuthNeeds = {
  config: {
    SLACK_CLIENT_ID?: string | undefined;
    SLACK_CLIENT_SECRET?: string | undefined;
    SLACK_OAUTH_AUTHORIZE_URL: string;
    SLACK_TOKEN_KEY?: string | undefined;
    PUBLIC_URL: string;
    WARDEN_JWT_SECRET: string;
  };
  slackStore: SlackStore;
  slackOAuth: SlackOAuthApi;
  auditLog: AuditLogStore;
  newId: (prefix: string) => string;
  clock: Clock;
};

/** Slack sends the browser back here; the same URL must be listed in the manifest's redirect_urls. */
export const CALLBACK_PATH = "/slack/oauth/callback";

const invalid = (path: string, message: string): AppError => ({
  code: "validation_failed",
  message,
  issues: [{ path, message }],
});

/** What the flow needs configured, or why it is off (404: this Worker offers no OAuth install). */
function oauthConfig(config: SlackOAuthNeeds["config"]) {
  const { SLACK_CLIENT_ID: client_id, SLACK_CLIENT_SECRET: client_secret, SLACK_TOKEN_KEY, PUBLIC_URL } = config;
  if (!client_id || !client_secret || !SLACK_TOKEN_KEY || !PUBLIC_URL)
    return err<AppError>({
      code: "not_found",
      message:
        "Slack OAuth install is not configured: set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_TOKEN_KEY and PUBLIC_URL (docs/slack.md)",
    });
  return ok({ client_id, client_secret, redirect_uri: `${PUBLIC_URL.replace(/(?<!\/)\/+$/, "")}${CALLBACK_PATH}` });
}

const alreadyInstalled: AppError = {
  code: "conflict",
  message: "this team already has a Slack installation: change it with PUT /v1/slack/installation",
};

/** GET /slack/install: where to send the admin's browser (Slack's consent page), with a state for their team. */
export async function startInstall(
  deps: SlackOAuthNeeds,
  principal: Principal,
): Promise<Result<{ url: string; expires_at: number }, AppError>> {
  const bound = teamWideProposer(principal);
  if (bound) return err(bound);
  const cfg = oauthConfig(deps.config);
  if (!cfg.ok) return cfg;
  if (await deps.slackStore.byTeam(principal.teamId)) return err(alreadyInstalled);
  const expires_at = deps.clock.now() + STATE_TTL_MS;
  const state = await signState(deps.config.WARDEN_JWT_SECRET, {
    team_id: principal.teamId,
    subject: principal.subject,
    nonce: deps.newId("oas"),
    expires_at,
  });
  const url = authorizeUrl(deps.config.SLACK_OAUTH_AUTHORIZE_URL, {
    client_id: cfg.value.client_id,
    scopes: SLACK_BOT_SCOPES,
    redirect_uri: cfg.value.redirect_uri,
    state,
  });
  return ok({ url, expires_at });
}

export type CallbackQuery = { code?: string | undefined; state?: string | undefined; error?: string | undefined };
export type Granted = { workspace_id: string; workspace_name: string | null; team_id: string };

/**
 * GET /slack/oauth/callback. Every refusal before the exchange leaves nothing behind; a state is spent (its nonce
 * recorded) just before the code goes to Slack, so it works once. After the exchange, a workspace that belongs to
 * another team, or a team installed meanwhile, is refused and the token dropped unstored.
 */
export async function completeInstall(deps: SlackOAuthNeeds, q: CallbackQuery): Promise<Result<Granted, AppError>> {
  const cfg = oauthConfig(deps.config);
  if (!cfg.ok) return cfg;
  if (!q.state) return err(invalid("state", "state is missing: start the install from GET /slack/install"));
  const checked = await verifyState(deps.config.WARDEN_JWT_SECRET, q.state, deps.clock.now());
  if (!checked.ok) return err(invalid("state", checked.error));
  // Slack's redirect when the user cancelled on its consent page (e.g. error=access_denied)
  if (q.error) return err(invalid("error", `Slack did not grant the install (${q.error.slice(0, 100)})`));
  if (!q.code) return err(invalid("code", "code is missing"));
  const state = checked.value;
  if (!(await deps.slackStore.firstDelivery(`oauth-state:${state.nonce}`, deps.clock.now())))
    return err(invalid("state", "state was already used: start the install again"));
  const exchanged = await deps.slackOAuth.oauthV2Access({
    client_id: cfg.value.client_id,
    client_secret: cfg.value.client_secret,
    code: q.code,
    redirect_uri: cfg.value.redirect_uri,
  });
  if (!exchanged.ok)
    return err({
      code: "rejected",
      message: `Slack refused the install code (${exchanged.error.slice(0, 200)}): start the install again`,
    });
  const { workspace_id, workspace_name, bot_token, scopes } = exchanged.access;
  const owner = await deps.slackStore.workspaceTeam(workspace_id);
  if (owner !== null && owner !== state.team_id)
    return err({ code: "conflict", message: "this Slack workspace belongs to another team" });
  if (await deps.slackStore.byTeam(state.team_id)) return err(alreadyInstalled);
  const now = deps.clock.now();
  await deps.slackStore.putGrant({ workspace_id, team_id: state.team_id, bot_token }, now);
  await deps.auditLog.append([
    {
      id: deps.newId("aud"),
      teamId: state.team_id,
      actor: state.subject,
      action: "slack.oauth_granted",
      subjectType: "slack_workspace",
      subjectId: workspace_id,
      metadata: { scopes },
      createdAt: now,
    },
  ]);
  return ok({ workspace_id, workspace_name, team_id: state.team_id });
}
