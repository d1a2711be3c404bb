// The pure part of run messages: what a worker's message says in Slack, and the outbox keys of a run's threads.
import type { RunMessage } from "./store/run-messages-port";

/** the posted-message key of a run's thread root: the feed channel's (the run feed's root) or a DM's */
export const threadKeys = {
  feed: (runId: string) => `run:${runId}`,
  dm: (runId: string) => `dm:${runId}`,
};

/** A worker's message as posted in the run's thread: its text, then the run and task it is about (seed journey 4). */
export function threadText(m: Pick<RunMessage, "text" | "run_id" | "task_id">): string {
  const ids = [`run \`${m.run_id}\``, ...(m.task_id ? [`task \`${m.task_id}\``] : [])].join(" · ");
  return `${m.text}\n_${ids}_`;
}

/** The wire view of a stored message (ISO time). */
export const messageView = (m: RunMessage) => ({ ...m, created_at: new Date(m.created_at).toISOString() });
export type * from "./store/run-messages-port";
