// D1 table of the messages feature (drizzle): a run's conversation (talk).

import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../../adapters/d1/columns";

/** the conversation of a run (`talk`): a worker's messages (POST /v1/runs/:run_id/messages) and the replies people
 * write in the run's Slack thread or DM; `seq` orders them and is the reader's cursor */
export const runMessages = sqliteTable(
  "run_message",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    messageId: text("message_id").notNull(),
    teamId: text("team_id").notNull(),
    runId: text("run_id").notNull(),
    /** worker (over the API) | person (a Slack reply) */
    authorKind: text("author_kind").notNull(),
    /** the token's subject, or the roster subject of the Slack user */
    author: text("author").notNull(),
    /** api | slack_thread | slack_dm */
    source: text("source").notNull(),
    taskId: text("task_id"),
    text: text("text").notNull(),
    /** the caller's op_id, or the Slack message ts: a retry finds the message it already wrote */
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("run_message_id").on(t.messageId),
    uniqueIndex("run_message_dedupe").on(t.runId, t.dedupeKey),
    index("run_message_run_seq").on(t.runId, t.seq),
  ],
);
