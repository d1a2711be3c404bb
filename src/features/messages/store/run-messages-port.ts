// Port: a run's conversation (`talk`): messages workers post over the API and replies people write in Slack.

export type RunMessageSource = "api" | "slack_thread" | "slack_dm";

export type RunMessage = {
  message_id: string;
  run_id: string;
  /** the reader's cursor: messages come back in seq order, `after` a seq */
  seq: number;
  author_kind: "worker" | "person";
  author: string;
  source: RunMessageSource;
  task_id: string | null;
  text: string;
  created_at: number;
};

export type NewRunMessage = Omit<RunMessage, "seq"> & { team_id: string; dedupe_key: string };

/** What a run's Slack thread is, found from a reply's (channel, thread ts). */
export type RunThread = { run_id: string; team_id: string; kind: "feed" | "dm" };

export interface RunMessageStore {
  /**
   * Writes the message unless the run already has one with its dedupe key; answers the stored one either way
   * (`created` false for a retry, whose text may differ: the caller compares).
   */
  append(m: NewRunMessage): Promise<{ message: RunMessage; created: boolean }>;
  /** the run's messages after the cursor, oldest first, at most `limit` */
  list(teamId: string, runId: string, after: number, limit: number): Promise<RunMessage[]>;
  /** the run whose Slack thread root (feed root `run:<id>` or DM root `dm:<id>`) is this message, if any */
  threadRun(channel: string, threadTs: string): Promise<RunThread | null>;
}
