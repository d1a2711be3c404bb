// Ports of the Slack feature's stores: installations and rosters, posted-message records, inbound dedupe, the outbox,
// delivery health and response_url uses (the Web API client is src/ports/slack-api.ts).

export type SlackChannels = { control: string; approvals: string; feed: string; ops: string };
export type SlackRole = "approver" | "admin";
export type SlackApprover = { slack_user_id: string; subject: string; role: SlackRole };

/** Per-installation choices; every field optional so an empty object is the private default. */
export type SlackSettings = {
  /** policy keys whose gate context may show on cards (guard-passed top-level fields only); none by default */
  share_context?: string[];
  /** the least roster role that may decide a gate of each kind (default approver; slack_channel_change: admin) */
  roles?: { soft?: SlackRole; hard?: SlackRole };
  /** who the level-2 escalation of a hard gate left open calls: a user group (S…, mentioned in the card's thread) or a
   * channel (C…/G…, posted to with a link to the card); none by default */
  escalation_target?: string;
  /** minutes after opening at which a hard gate's escalation levels 1 and 2 fall due (default 15 and 60) */
  escalation_minutes?: [number, number];
};

export type SlackInstallation = {
  workspace_id: string;
  team_id: string;
  channels: SlackChannels;
  approvers: SlackApprover[];
  settings: SlackSettings;
  /** the bot token, decrypted (never stored in clear) */
  bot_token: string;
};

/** What Slack's OAuth v2 install gives before channels and roster are set: the workspace and its bot token. */
export type SlackGrant = { workspace_id: string; team_id: string; bot_token: string };

export interface SlackStore {
  /** Writes (or replaces) the installation of a workspace for a team, roster included; the token is encrypted here. */
  putInstallation(inst: SlackInstallation, now: number): Promise<void>;
  byWorkspace(workspaceId: string): Promise<SlackInstallation | null>;
  byTeam(teamId: string): Promise<SlackInstallation | null>;
  /** The team a workspace belongs to, installed or only granted through OAuth (channels not set yet); null if none. */
  workspaceTeam(workspaceId: string): Promise<string | null>;
  /** Records an OAuth grant (workspace → team, bot token encrypted here) of a team not installed yet: no channels and
   * no roster, so byTeam/byWorkspace keep answering null until PUT /v1/slack/installation completes it. */
  putGrant(grant: SlackGrant, now: number): Promise<void>;
  /** The team's OAuth grant still waiting for its channels and roster, if any. */
  grantOf(teamId: string): Promise<SlackGrant | null>;
  /** Stores a change of a team's installation (roster, channels, settings, token) as the next pending version. */
  proposeChange(inst: SlackInstallation, proposedBy: string, now: number): Promise<number>;
  /** Applies a pending change (its slack_channel_change gate was approved); false when it is not pending. */
  activateChange(teamId: string, version: number, now: number): Promise<boolean>;
  /** Records an inbound Slack delivery key; false when it was seen before (a retry or a duplicate). */
  firstDelivery(key: string, now: number): Promise<boolean>;
  /** Forgets a delivery key whose effect failed, so Slack's retry of it is applied. */
  forgetDelivery(key: string): Promise<void>;
  /** The posted message for a logical key (e.g. `gate:<gate_id>`), if one was posted. */
  postedMessage(key: string): Promise<{ channel: string; ts: string; version: number } | null>;
  /** Records a posted (or updated) message's ts and content version before the outbox message is acked. */
  recordPosted(
    m: { key: string; teamId: string; channel: string; ts: string; version: number },
    now: number,
  ): Promise<void>;
}

/** One unit of slow Slack work, sent to the SLACK_OUTBOX queue and done by its consumer. */
export type SlackOutboxMessage =
  | {
      kind: "post";
      team_id: string;
      /** logical key: a message posted once per key; later sends with the key update it in place */
      key: string;
      channel: keyof SlackChannels;
      text: string;
      blocks?: unknown[];
      metadata?: { event_type: string; event_payload: Record<string, unknown> };
      thread_key?: string;
      /** a channel id to post to instead of the installation's `channel` (an escalation target channel) */
      channel_id?: string;
      /** the logical key of a posted message (a gate card) whose permalink is appended to the text, when it has one */
      link_key?: string;
      /** content version: an update with a lower version than the one shown is dropped (late redelivery) */
      version?: number;
    }
  | {
      kind: "respond";
      team_id: string;
      response_url: string;
      text: string;
      replace_original?: boolean;
      /** the message the response_url belongs to: updated with chat.update once the response_url is used up */
      message?: { channel: string; ts: string };
    };

export interface SlackOutbox {
  send(messages: SlackOutboxMessage[]): Promise<void>;
}

/** A team's Slack delivery health as the outbox consumer records it. */
export type SlackHealth = { consecutive_failures: number; outage_since: number | null };

/** The two-person override of a team's outage fallback: requested by one admin, confirmed by another. */
export type OutageOverride = {
  requested_by: string;
  requested_at: number;
  reason: string;
  /** how long the override lasts once confirmed */
  ttl_ms: number;
  confirmed_by: string | null;
  /** confirmed: the fallback is off until then (or until the outage ends); null while pending */
  until: number | null;
};

/** A team's approval outage as the gates see it: since when, and its override, if any. */
export type ApprovalOutage = { since: number; override: OutageOverride | null };

/** A gate the outage fallback denied (an approval_event with outcome fallback_denied). */
export type FallbackDenial = { run_id: string; gate_id: string; policy_key: string; denied_at: number };

/** Slack delivery health per team, written by the SLACK_OUTBOX consumer (docs/slack.md "Approval outage"). */
export interface SlackDeliveryHealth {
  /** the team's approval outage with its override; null while Slack delivers */
  outage(teamId: string): Promise<ApprovalOutage | null>;
  /**
   * Writes the override if the stored one still is `expected` (compared by requested_at and confirmed_by) and the
   * outage is still on; false when either changed meanwhile (a concurrent request or the outage's end).
   */
  writeOverride(teamId: string, next: OutageOverride, expected: OutageOverride | null, now: number): Promise<boolean>;
  /** the gates the fallback denied since `since`: how many, and the newest `limit` of them */
  fallbackDenials(teamId: string, since: number, limit: number): Promise<{ count: number; gates: FallbackDenial[] }>;
  /** one more failed delivery; the outage starts (outage_since = now) when the count reaches the threshold */
  recordFailure(teamId: string, error: string, now: number): Promise<SlackHealth>;
  /** a delivered message: the count and any outage are cleared; answers what was cleared */
  recordSuccess(teamId: string, now: number): Promise<SlackHealth>;
  health(teamId: string): Promise<SlackHealth>;
}

/** Uses of each response_url (by its sha256), counted by the SLACK_OUTBOX consumer before it answers one. */
export interface SlackResponseUrls {
  /** one more use of the url; answers the uses so far, this one included, and when the first was */
  use(urlHash: string, teamId: string, now: number): Promise<{ uses: number; first_used_at: number }>;
}
