// What the messages feature needs from the composition root.
import type { Clock } from "../../ports/clock";
import type { RunsService } from "../runs";
import type { SlackOutbox, SlackStore } from "../slack/domain";
import type { RunMessageStore } from "./store/run-messages-port";

export type MessagesNeeds = {
  runMessages: RunMessageStore;
  /** the run's object answers who may touch the run (its team; a run-bound token only its run) */
  runs: RunsService;
  /** a worker's message is posted into the run's Slack thread through the outbox */
  slackOutbox: SlackOutbox;
  slackStore: Pick<SlackStore, "byTeam" | "postedMessage">;
  newId: (prefix: string) => string;
  clock: Clock;
};
