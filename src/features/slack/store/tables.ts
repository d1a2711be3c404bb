// D1 tables of the Slack feature (drizzle): installations, roster, posted messages, delivery health, the run feed, operator alerts, inbound dedupe.

import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/** one Slack workspace per Warden team: channels and the bot token (AES-GCM, iv + ciphertext, base64) */
export const slackInstallations = sqliteTable(
  "slack_installation",
  {
    workspaceId: text("workspace_id").primaryKey(),
    teamId: text("team_id").notNull(),
    botTokenEnc: text("bot_token_enc").notNull(),
    channels: text("channels", { mode: "json" }).notNull(),
    /** SlackSettings (slack-store-port.ts): policy keys whose gate context may show on cards, escalation timers and target */
    settings: text("settings", { mode: "json" }).notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("slack_installation_team").on(t.teamId)],
);

/** the approver roster of a team: which Slack user is which Warden subject, with which role */
export const slackApprovers = sqliteTable(
  "slack_approver",
  {
    teamId: text("team_id").notNull(),
    slackUserId: text("slack_user_id").notNull(),
    subject: text("subject").notNull(),
    role: text("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.slackUserId] })],
);

/** messages the outbox posted, by logical key: recorded before the ack, so a redelivery updates instead of reposting */
export const slackMessages = sqliteTable(
  "slack_message",
  {
    key: text("key").primaryKey(),
    teamId: text("team_id").notNull(),
    channel: text("channel").notNull(),
    ts: text("ts").notNull(),
    /** the version of the content last shown (gate cards: opened 1, decided 2); an older one never overwrites it */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  // a reply in a thread names its root by (channel, ts): the run thread it belongs to is found through this index
  (t) => [index("slack_message_channel_ts").on(t.channel, t.ts)],
);

/** Slack delivery health per team (RB-06): consecutive failed outbox deliveries, and since when the team counts as in
 * an approval outage (at SLACK_OUTAGE_AFTER_FAILURES); the next successful delivery resets both */
export const slackDeliveryHealth = sqliteTable("slack_delivery_health", {
  teamId: text("team_id").primaryKey(),
  consecutiveFailures: integer("consecutive_failures").notNull(),
  outageSince: integer("outage_since"),
  lastError: text("last_error"),
  updatedAt: integer("updated_at").notNull(),
  /** the two-person override of the outage fallback (docs/slack.md "Approval outage"): the first admin's request … */
  overrideRequestedBy: text("override_requested_by"),
  overrideRequestedAt: integer("override_requested_at"),
  overrideReason: text("override_reason"),
  /** … how long it lasts once confirmed (ms) … */
  overrideTtlMs: integer("override_ttl_ms"),
  /** … and the second, different admin's confirmation; the fallback is off until override_until or the outage ends */
  overrideConfirmedBy: text("override_confirmed_by"),
  overrideUntil: integer("override_until"),
});

/** uses of each Slack response_url (by its sha256): Slack takes at most 5 within 30 minutes of the first, after which
 * the outbox updates the message with chat.update instead (docs/slack.md "response_url") */
export const slackResponseUrlUses = sqliteTable("slack_response_url_use", {
  urlHash: text("url_hash").primaryKey(),
  teamId: text("team_id").notNull(),
  firstUsedAt: integer("first_used_at").notNull(),
  uses: integer("uses").notNull(),
});

/** roster/channel changes after the first install, each waiting behind a slack_channel_change gate (deploy target
 * `slack`): status pending → active when approved; the whole new installation, bot token sealed as in the installation */
export const slackChangeRequests = sqliteTable(
  "slack_change_request",
  {
    teamId: text("team_id").notNull(),
    version: integer("version").notNull(),
    status: text("status").notNull(),
    workspaceId: text("workspace_id").notNull(),
    botTokenEnc: text("bot_token_enc").notNull(),
    channels: text("channels", { mode: "json" }).notNull(),
    approvers: text("approvers", { mode: "json" }).notNull(),
    settings: text("settings", { mode: "json" }).notNull(),
    proposedBy: text("proposed_by").notNull(),
    createdAt: createdAt(),
    activatedAt: integer("activated_at"),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.version] })],
);

/** the run feed per run (one thread in the feed channel): the last steps its status reply shows, the status reply's
 * content version (one more per step taken in), and whether `/warden mute` silenced it */
export const slackFeedRuns = sqliteTable("slack_feed_run", {
  runId: text("run_id").primaryKey(),
  teamId: text("team_id").notNull(),
  /** FeedStep[] (slack-feed-store-port.ts), oldest first, at most FEED_STATUS_STEPS */
  steps: text("steps", { mode: "json" }).notNull(),
  version: integer("version").notNull().default(0),
  mutedAt: integer("muted_at"),
  mutedBy: text("muted_by"),
  createdAt: createdAt(),
  updatedAt: integer("updated_at").notNull(),
});

/** one row per operator-alert occurrence (insert-or-ignore by id, so a redelivery counts once); the ops-channel
 * message of a (team, kind, window) shows their count */
export const slackAlertOccurrences = sqliteTable(
  "slack_alert_occurrence",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    kind: text("kind").notNull(),
    windowStart: integer("window_start").notNull(),
    detail: text("detail").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("slack_alert_occurrence_window").on(t.teamId, t.kind, t.windowStart)],
);

/** inbound Slack deliveries already handled (event ids, interaction and command trigger ids): retries change nothing */
export const slackInbound = sqliteTable("slack_inbound", {
  key: text("key").primaryKey(),
  createdAt: createdAt(),
});
