// D1 adapter of the run feed and operator alerts: slack_feed_run (status steps, version, mute) and
// slack_alert_occurrence (insert-or-ignore by id, counted per team, kind and window).
import { and, count, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { runInBatches } from "../../../adapters/d1/batch";
import type { FeedStep, SlackFeedStore } from "./slack-feed-store-port";
import { slackAlertOccurrences, slackFeedRuns } from "./tables";

const feed = slackFeedRuns;
const alerts = slackAlertOccurrences;

/** the run feed's per-run state (steps, status version, mute) */
function feedRuns(db: DrizzleD1Database): Pick<SlackFeedStore, "feedRun" | "saveFeedRun" | "setMuted"> {
  return {
    async feedRun(runId) {
      const [row] = await db.select().from(feed).where(eq(feed.runId, runId));
      if (!row) return null;
      return {
        run_id: row.runId,
        team_id: row.teamId,
        steps: row.steps as FeedStep[],
        version: row.version,
        muted: row.mutedAt !== null,
        muted_by: row.mutedAt !== null ? row.mutedBy : null,
      };
    },
    async saveFeedRun(run, expected, now) {
      if (expected === null) {
        const res = await db
          .insert(feed)
          .values({
            runId: run.run_id,
            teamId: run.team_id,
            steps: run.steps,
            version: run.version,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .run();
        return (res.meta?.changes ?? 0) > 0;
      }
      // compare-and-set on the version: two consumers taking in steps of one run never lose one another's
      const res = await db
        .update(feed)
        .set({ steps: run.steps, version: run.version, updatedAt: now })
        .where(and(eq(feed.runId, run.run_id), eq(feed.version, expected)))
        .run();
      return (res.meta?.changes ?? 0) > 0;
    },
    async setMuted(teamId, runId, muted, now) {
      const set = { mutedAt: muted ? now : null, mutedBy: muted?.by ?? null, updatedAt: now };
      await db
        .insert(feed)
        .values({ runId, teamId, steps: [], version: 0, ...set, createdAt: now })
        .onConflictDoUpdate({ target: feed.runId, set })
        .run();
    },
  };
}

/** operator-alert occurrences, counted once per id */
function alertOccurrences(db: DrizzleD1Database): Pick<SlackFeedStore, "recordAlerts"> {
  return {
    async recordAlerts(occurrences) {
      await runInBatches(
        db,
        occurrences.map((o) =>
          db
            .insert(alerts)
            .values({
              id: o.id,
              teamId: o.team_id,
              kind: o.kind,
              windowStart: o.window_start,
              detail: o.detail.slice(0, 500),
              at: o.at,
            })
            .onConflictDoNothing(),
        ),
      );
      const counts = new Map<string, number>();
      for (const o of occurrences) {
        const key = `${o.team_id}|${o.kind}|${o.window_start}`;
        if (counts.has(key)) continue;
        const [row] = await db
          .select({ n: count() })
          .from(alerts)
          .where(and(eq(alerts.teamId, o.team_id), eq(alerts.kind, o.kind), eq(alerts.windowStart, o.window_start)));
        counts.set(key, row?.n ?? 0);
      }
      return counts;
    },
  };
}

export function createD1SlackFeedStore(db: DrizzleD1Database): SlackFeedStore {
  return { ...feedRuns(db), ...alertOccurrences(db) };
}
