// D1 adapter of Slack delivery health (RB-06): one row per team, updated with a single atomic upsert per delivery.
import { eq, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { SLACK_OUTAGE_AFTER_FAILURES, type SlackDeliveryHealth, type SlackHealth } from "../../ports/slack";
import { slackDeliveryHealth } from "./schema";

const t = slackDeliveryHealth;

const HEALTHY: SlackHealth = { consecutive_failures: 0, outage_since: null };
const view = (r: { consecutiveFailures: number; outageSince: number | null }): SlackHealth => ({
  consecutive_failures: r.consecutiveFailures,
  outage_since: r.outageSince,
});

export function createD1SlackDeliveryHealth(db: DrizzleD1Database): SlackDeliveryHealth {
  return {
    async recordFailure(teamId, error, now) {
      // one statement, so concurrent consumer invocations never lose a count
      const outageAtInsert = SLACK_OUTAGE_AFTER_FAILURES <= 1 ? now : null;
      const [row] = await db
        .insert(t)
        .values({ teamId, consecutiveFailures: 1, outageSince: outageAtInsert, lastError: error, updatedAt: now })
        .onConflictDoUpdate({
          target: t.teamId,
          set: {
            consecutiveFailures: sql`${t.consecutiveFailures} + 1`,
            outageSince: sql`coalesce(${t.outageSince}, case when ${t.consecutiveFailures} + 1 >= ${SLACK_OUTAGE_AFTER_FAILURES} then ${now} end)`,
            lastError: error,
            updatedAt: now,
          },
        })
        .returning();
      return row ? view(row) : HEALTHY;
    },
    async recordSuccess(teamId, now) {
      const before = await this.health(teamId);
      if (before.consecutive_failures === 0 && before.outage_since === null) return before;
      await db
        .update(t)
        .set({ consecutiveFailures: 0, outageSince: null, lastError: null, updatedAt: now })
        .where(eq(t.teamId, teamId));
      return before;
    },
    async health(teamId) {
      const [row] = await db.select().from(t).where(eq(t.teamId, teamId));
      return row ? view(row) : HEALTHY;
    },
  };
}
