// Slack routes: the signed ingress (/slack/commands, /slack/interactions, /slack/events) and PUT /v1/slack/installation.
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { AppFailure } from "../../errors";
import { applyRateLimits, requireScope } from "../../http/middleware";
import { bearer, commonErrors, featureApp, jsonBody, jsonResponse } from "../../http/openapi";
import type { FeatureEnv } from "../../http/types";
import { assertTeamWideProposer, DeployAccepted, proposeDeploy } from "../gates";
import { handleCommand } from "./commands";
import { ESCALATION_MINUTES_MAX, ESCALATION_TARGET } from "./escalation";
import { handleInteraction } from "./interactions";
import type { SlackNeeds } from "./needs";
import { slackOAuthRoutes } from "./oauth-routes";
import { verifySlackRequest } from "./signature";
import { handleMessageEvent } from "./talk";

const slackId = z.string().regex(/^[A-Z0-9]{2,32}$/, "a Slack id (upper-case letters and digits)");
export const SlackInstallationBody = z
  .strictObject({
    workspace_id: slackId,
    bot_token: z
      .string()
      .regex(/^xox[bp]-[\w-]{4,250}$/, "a Slack bot token (xoxb-…)")
      .optional()
      .describe(
        "required unless the workspace's token is already known: from the OAuth install (GET /slack/install) or the current installation",
      ),
    channels: z.strictObject({ control: slackId, approvals: slackId, feed: slackId, ops: slackId }),
    approvers: z
      .array(
        z.strictObject({
          slack_user_id: slackId,
          subject: z.string().min(1).max(128),
          role: z.enum(["approver", "admin"]),
        }),
      )
      .min(1)
      .max(200),
    settings: z
      .strictObject({
        share_context: z
          .array(z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "a policy key"))
          .max(100)
          .optional()
          .describe(
            "policy keys whose gate context may show on cards (guard-passed top-level fields); none by default",
          ),
        roles: z
          .strictObject({
            soft: z.enum(["approver", "admin"]).optional(),
            hard: z.enum(["approver", "admin"]).optional(),
          })
          .optional()
          .describe("the least roster role that may decide soft and hard gates from Slack (default approver)"),
        escalation_target: z
          .string()
          .regex(ESCALATION_TARGET, "a Slack user-group id (S…) or channel id (C…/G…)")
          .optional()
          .describe(
            "who the level-2 escalation of a hard gate left open calls: a user group (mentioned in the card's thread) or a channel (posted to, with a link to the card); docs/slack.md",
          ),
        escalation_minutes: z
          .tuple([z.int().min(1), z.int().max(ESCALATION_MINUTES_MAX)])
          .refine(([first, second]) => first < second, "the first interval must be shorter than the second")
          .optional()
          .describe(
            "minutes after a hard gate opened at which escalation levels 1 and 2 fall due: 1 ≤ first < second ≤ 1440 (default [15, 60]); gates opened after the change use them",
          ),
      })
      .optional(),
  })
  .meta({
    id: "SlackInstallation",
    example: {
      workspace_id: "T0123ABCD",
      bot_token: "xoxb-…",
      channels: { control: "C01CTRL", approvals: "C01APPR", feed: "C01FEED", ops: "C01OPS" },
      approvers: [{ slack_user_id: "U01ALICE", subject: "alice@example.com", role: "approver" }],
    },
  });
const InstallationReply = z
  .object({ workspace_id: z.string(), team_id: z.string(), approvers: z.int(), status: z.literal("installed") })
  .meta({ id: "SlackInstallationReply" });

type Ctx = Context<FeatureEnv<SlackNeeds>>;

/** The raw body, once its Slack signature checks out; anything else is a 401 before any side effect. */
async function verified(c: Ctx): Promise<string> {
  // bytes, not text(): Slack signs the exact bytes it sent, form-encoded or JSON
  const raw = new TextDecoder().decode(await c.req.arrayBuffer());
  const check = await verifySlackRequest({
    secrets: [c.env.deps.config.SLACK_SIGNING_SECRET, c.env.deps.config.SLACK_SIGNING_SECRET_PREVIOUS],
    timestamp: c.req.header("x-slack-request-timestamp"),
    signature: c.req.header("x-slack-signature"),
    body: raw,
    nowMs: c.env.deps.clock.now(),
  });
  if (!check.ok) throw new AppFailure({ code: "unauthorized", message: `slack signature refused (${check.reason})` });
  return raw;
}

/**
 * The `slack` rate-limit class for a verified request from an installed workspace: the Slack user's bucket within the
 * team first, then the team's (an unknown workspace changes nothing, so it spends nothing). Returns the headers.
 */
async function slackLimits(c: Ctx, workspace: string | null | undefined, user: string | null | undefined) {
  const { deps } = c.env;
  const inst = workspace ? await deps.slackStore.byWorkspace(workspace) : null;
  if (!inst) return {};
  return applyRateLimits(deps, c.req, inst.team_id, `slack:${user ?? "unknown"}`, deps.clock.now());
}

const withHeaders = (res: Response, headers: Record<string, string>) => {
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  return res;
};

const form = (raw: string) => new URLSearchParams(raw);
const bad = (message: string) =>
  new AppFailure({ code: "validation_failed", message, issues: [{ path: "", message }] });

export const slackRoutes = featureApp<SlackNeeds>()
  .openapi(
    createRoute({
      method: "put",
      path: "/v1/slack/installation",
      tags: ["slack"],
      summary:
        "Install Slack for the caller's team: workspace, channels, approver roster, bot token (encrypted at rest); a later change waits behind a slack_channel_change hard gate (202)",
      security: bearer,
      middleware: [requireScope("policy:admin")] as const,
      request: { body: jsonBody(SlackInstallationBody) },
      responses: {
        200: jsonResponse(InstallationReply, "installed (the team's first install)"),
        202: jsonResponse(
          DeployAccepted,
          "a change of an existing installation, pending its slack_channel_change gate",
        ),
        ...commonErrors,
      },
    }),
    async (c) => {
      const { deps } = c.env;
      const principal = c.get("principal");
      const body = c.req.valid("json");
      const owner = await deps.slackStore.workspaceTeam(body.workspace_id);
      if (owner !== null && owner !== principal.teamId)
        throw new AppFailure({ code: "conflict", message: "this Slack workspace belongs to another team" });
      const current = await deps.slackStore.byTeam(principal.teamId);
      // Without bot_token: the token this workspace already has here (installed, or granted by the OAuth install).
      const known = current ?? (await deps.slackStore.grantOf(principal.teamId));
      const bot_token = body.bot_token ?? (known?.workspace_id === body.workspace_id ? known.bot_token : undefined);
      if (!bot_token)
        throw bad(
          "bot_token is required: this workspace has no token here yet (or install it with GET /slack/install)",
        );
      const inst = { ...body, bot_token, settings: body.settings ?? {}, team_id: principal.teamId };
      // The first install (an OAuth grant's completion included) applies at once; a later roster, channel or settings
      // change is stored pending and applied when an admin approves its slack_channel_change hard gate (deploy target
      // `slack` on the team's control run).
      if (current) {
        assertTeamWideProposer(principal);
        const version = await deps.slackStore.proposeChange(inst, principal.subject, deps.clock.now());
        const context = { workspace_id: body.workspace_id, channels: body.channels, approvers: body.approvers };
        return c.json(await proposeDeploy(deps, principal, "slack", version, context), 202);
      }
      await deps.slackStore.putInstallation(inst, deps.clock.now());
      await deps.auditLog.append([
        {
          id: deps.newId("aud"),
          teamId: principal.teamId,
          actor: principal.subject,
          action: "slack.installed",
          subjectType: "slack_workspace",
          subjectId: body.workspace_id,
          metadata: { channels: body.channels, approvers: body.approvers.length },
          createdAt: deps.clock.now(),
        },
      ]);
      return c.json(
        {
          workspace_id: body.workspace_id,
          team_id: principal.teamId,
          approvers: body.approvers.length,
          status: "installed" as const,
        },
        200,
      );
    },
  )
  .post("/slack/commands", async (c) => {
    const f = form(await verified(c));
    const team_id = f.get("team_id");
    const user_id = f.get("user_id");
    if (!team_id || !user_id) throw bad("a slash command needs team_id and user_id");
    const limits = await slackLimits(c, team_id, user_id);
    const trigger_id = f.get("trigger_id");
    const reply = await handleCommand(c.env.deps, {
      team_id,
      user_id,
      text: f.get("text") ?? "",
      ...(trigger_id ? { trigger_id } : {}),
    });
    return withHeaders(c.json(reply, 200), limits);
  })
  .post("/slack/interactions", async (c) => {
    const raw = form(await verified(c)).get("payload");
    let payload: unknown;
    try {
      payload = JSON.parse(raw ?? "");
    } catch {
      throw bad("interactivity needs a JSON `payload` field");
    }
    if (!payload || typeof payload !== "object") throw bad("interactivity needs a JSON `payload` field");
    const p = payload as Parameters<typeof handleInteraction>[1];
    const limits = await slackLimits(c, p.team?.id, p.user?.id);
    const reply = await handleInteraction(c.env.deps, p);
    return withHeaders(reply.body ? c.json(reply.body, 200) : c.body(null, 200), limits);
  })
  .post("/slack/events", async (c) => {
    const raw = await verified(c);
    let body: { type?: string; challenge?: string; event_id?: string; team_id?: string; event?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      throw new AppFailure({ code: "invalid_json" });
    }
    if (body?.type === "url_verification") {
      if (typeof body.challenge !== "string") throw bad("url_verification needs a challenge");
      return c.json({ challenge: body.challenge }, 200);
    }
    // event_callback: acted on once by event_id (Slack's retries, X-Slack-Retry-Num, change nothing); a failed
    // effect forgets the id, so Slack's retry applies it. `message` events: talk replies and DMs (talk.ts).
    const { deps } = c.env;
    const limits = await slackLimits(c, body?.team_id, null);
    if (typeof body?.event_id === "string") {
      const key = `evt:${body.event_id}`;
      if (await deps.slackStore.firstDelivery(key, deps.clock.now()))
        await handleMessageEvent(deps, typeof body.team_id === "string" ? body.team_id : undefined, body.event).catch(
          async (e) => {
            await deps.slackStore.forgetDelivery(key);
            throw e;
          },
        );
    }
    return withHeaders(c.body(null, 200), limits);
  })
  .route("/", slackOAuthRoutes);
