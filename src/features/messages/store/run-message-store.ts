// D1 adapter of run messages: run_message (the one writer), and the run a Slack thread belongs to (read from
// slack_message, whose writer is the Slack store).
import { and, asc, eq, gt } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { slackMessages } from "../../slack/store/tables";
import type { RunMessage, RunMessageStore, RunThread } from "./run-messages-port";
import { runMessages } from "./tables";

const m = runMessages;

function toMessage(row: typeof m.$inferSelect): RunMessage {
  return {
    message_id: row.messageId,
    run_id: row.runId,
    seq: row.seq,
    author_kind: row.authorKind as RunMessage["author_kind"],
    author: row.author,
    source: row.source as RunMessage["source"],
    task_id: row.taskId,
    text: row.text,
    created_at: row.createdAt,
  };
}

export function createD1RunMessageStore(db: DrizzleD1Database): RunMessageStore {
  return {
    async append(msg) {
      const res = await db
        .insert(m)
        .values({
          messageId: msg.message_id,
          teamId: msg.team_id,
          runId: msg.run_id,
          authorKind: msg.author_kind,
          author: msg.author,
          source: msg.source,
          taskId: msg.task_id,
          text: msg.text,
          dedupeKey: msg.dedupe_key,
          createdAt: msg.created_at,
        })
        .onConflictDoNothing()
        .run();
      const [row] = await db
        .select()
        .from(m)
        .where(and(eq(m.runId, msg.run_id), eq(m.dedupeKey, msg.dedupe_key)));
      if (!row) throw new Error("run message neither written nor found");
      return { message: toMessage(row), created: (res.meta?.changes ?? 0) > 0 };
    },
    async list(teamId, runId, after, limit) {
      const rows = await db
        .select()
        .from(m)
        .where(and(eq(m.teamId, teamId), eq(m.runId, runId), gt(m.seq, after)))
        .orderBy(asc(m.seq))
        .limit(limit);
      return rows.map(toMessage);
    },
    async threadRun(channel, threadTs) {
      const s = slackMessages;
      const rows = await db
        .select({ key: s.key, teamId: s.teamId })
        .from(s)
        .where(and(eq(s.channel, channel), eq(s.ts, threadTs)));
      for (const row of rows) {
        const feed = /^run:(.+)$/.exec(row.key);
        const dm = /^dm:(.+)$/.exec(row.key);
        const hit: RunThread | null = feed
          ? { run_id: feed[1] as string, team_id: row.teamId, kind: "feed" }
          : dm
            ? { run_id: dm[1] as string, team_id: row.teamId, kind: "dm" }
            : null;
        if (hit) return hit;
      }
      return null;
    },
  };
}
