// What the Slack feature needs from the composition root.
import type { AuditLogStore } from "../../ports/audit-log";
import type { BoardGateway } from "../../ports/board";
import type { Clock } from "../../ports/clock";
import type { SlackApi } from "../../ports/slack-api";
import type { AckNeeds } from "../gates";
import type { RunMessageStore } from "../messages/domain";
import type { RunsService } from "../runs";
import type { RunIndex } from "../runs/domain";
import type { SlackOAuthNeeds } from "./oauth";
import type { SlackFeedStore } from "./store/slack-feed-store-port";
import type { SlackOutbox, SlackStore } from "./store/slack-store-port";

export type SlackNeeds = {
  config: {
    SLACK_SIGNING_SECRET?: string | undefined;
    SLACK_SIGNING_SECRET_PREVIOUS?: string | undefined;
    PUBLIC_URL: string;
    WARDEN_JWT_SECRET: string;
    /** the Slack Web API base: a response_url on its origin is allowed besides https://hooks.slack.com/ (tests) */
    SLACK_API_BASE_URL: string;
  };
  slackStore: SlackStore;
  slackApi: SlackApi;
  slackOutbox: SlackOutbox;
  /** the run feed's state: `mute` / `unmute` write it */
  slackFeed: SlackFeedStore;
  runs: RunsService;
  /** the team's board: `new` with a graph is admitted by it first (backpressure) */
  board: BoardGateway;
  auditLog: AuditLogStore;
  /** replies people write in a run's thread or DM become the run's messages; finds the run a thread belongs to */
  runMessages: RunMessageStore;
  /** `status <task_id>`: the run a task's orders belong to */
  runIndex: Pick<RunIndex, "taskOrders">;
  newId: (prefix: string) => string;
  clock: Clock;
} & SlackOAuthNeeds &
  AckNeeds;

/** What the EVENTS consumer needs to queue gate cards (installation lookup, signed trace links). */
export type SlackCardNeeds = {
  slackOutbox: SlackOutbox;
  slackStore: SlackStore;
  clock: Clock;
  config: { PUBLIC_URL: string; WARDEN_JWT_SECRET: string };
};

/** What the run feed and the operator alerts need: the card needs plus the feed state and alert occurrences. */
export type SlackFeedNeeds = SlackCardNeeds & { slackFeed: SlackFeedStore };
