// D1 adapter of Slack delivery health (RB-06): one row per team, updated with a single atomic upsert per delivery,
// plus the outage's two-person override (guarded updates) and the gates its fallback denied (read from approval_event).
import { and, count, desc, eq, gte, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { approvalEvents } from "../../runs/store/tables";
import { SLACK_OUTAGE_AFTER_FAILURES } from "../domain";
import type { ApprovalOutage, OutageOverride, SlackDeliveryHealth, SlackHealth } from "./slack-store-port";
import { slackDeliveryHealth } from "./tables";

const t = slackDeliveryHealth;

const HEALTHY: SlackHealth = { consecutive_failures: 0, outage_since: null };
const view = (r: { consecutiveFailures: number; outageSince: number | null }): SlackHealth => ({
  consecutive_failures: r.consecutiveFailures,
  outage_since: r.outageSince,
});

const NO_OVERRIDE = {
  overrideRequestedBy: null,
  overrideRequestedAt: null,
  overrideReason: null,
  overrideTtlMs: null,
  overrideConfirmedBy: null,
  overrideUntil: null,
};

type Row = typeof t.$inferSelect;
function overrideOf(r: Row): OutageOverride | null {
  if (r.overrideRequestedBy === null || r.overrideRequestedAt === null) return null;
  return {
    requested_by: r.overrideRequestedBy,
    requested_at: r.overrideRequestedAt,
    reason: r.overrideReason ?? "",
    ttl_ms: r.overrideTtlMs ?? 0,
    confirmed_by: r.overrideConfirmedBy,
    until: r.overrideUntil,
  };
}

/** the stored override is still `expected` (nothing, or the same request in the same confirmation state) */
const isStill = (expected: OutageOverride | null): SQL | undefined =>
  expected === null
    ? isNull(t.overrideRequestedAt)
    : and(
        eq(t.overrideRequestedAt, expected.requested_at),
        eq(t.overrideRequestedBy, expected.requested_by),
        expected.confirmed_by === null
          ? isNull(t.overrideConfirmedBy)
          : eq(t.overrideConfirmedBy, expected.confirmed_by),
      );

/** failed deliveries in a row per team, counted and reset by the outbox */
function deliveryCounts(
  db: DrizzleD1Database,
): Pick<SlackDeliveryHealth, "recordFailure" | "recordSuccess" | "health"> {
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
      // the end of an outage also ends its override: the next outage starts with the fallback on
      await db
        .update(t)
        .set({ consecutiveFailures: 0, outageSince: null, lastError: null, updatedAt: now, ...NO_OVERRIDE })
        .where(eq(t.teamId, teamId));
      return before;
    },
    async health(teamId) {
      const [row] = await db.select().from(t).where(eq(t.teamId, teamId));
      return row ? view(row) : HEALTHY;
    },
  };
}

/** the approval outage a count starts, its operator override, and the gates it denied */
function approvalOutage(
  db: DrizzleD1Database,
): Pick<SlackDeliveryHealth, "outage" | "writeOverride" | "fallbackDenials"> {
  return {
    async outage(teamId): Promise<ApprovalOutage | null> {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.teamId, teamId), isNotNull(t.outageSince)));
      return row && row.outageSince !== null ? { since: row.outageSince, override: overrideOf(row) } : null;
    },
    async writeOverride(teamId, next, expected, now) {
      const changed = await db
        .update(t)
        .set({
          overrideRequestedBy: next.requested_by,
          overrideRequestedAt: next.requested_at,
          overrideReason: next.reason,
          overrideTtlMs: next.ttl_ms,
          overrideConfirmedBy: next.confirmed_by,
          overrideUntil: next.until,
          updatedAt: now,
        })
        .where(and(eq(t.teamId, teamId), isNotNull(t.outageSince), isStill(expected)))
        .returning({ teamId: t.teamId });
      return changed.length === 1;
    },
    async fallbackDenials(teamId, since, limit) {
      const where = and(
        eq(approvalEvents.teamId, teamId),
        gte(approvalEvents.createdAt, since),
        eq(approvalEvents.outcome, "fallback_denied"),
      );
      const [total, rows] = await db.batch([
        db.select({ n: count() }).from(approvalEvents).where(where),
        db
          .select({
            run_id: approvalEvents.runId,
            gate_id: approvalEvents.gateId,
            policy_key: approvalEvents.policyKey,
            denied_at: approvalEvents.createdAt,
          })
          .from(approvalEvents)
          .where(where)
          .orderBy(desc(approvalEvents.createdAt), desc(approvalEvents.gateId))
          .limit(limit),
      ]);
      return { count: total[0]?.n ?? 0, gates: rows };
    },
  };
}

export function createD1SlackDeliveryHealth(db: DrizzleD1Database): SlackDeliveryHealth {
  return { ...deliveryCounts(db), ...approvalOutage(db) };
}
