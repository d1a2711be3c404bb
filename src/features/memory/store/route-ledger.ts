// RouteLedger over D1 with drizzle: session episodes joined with their activation, route overrides, pending pins.
import { and, asc, count, eq, gte, inArray, isNull, ne, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { appliedOnce, insertNextVersion, pendingRequest } from "../../../adapters/d1/next-version";
import type { RouteLedger, RouteOverrideRow } from "./route-ledger-port";
import { memActivations, routeOverrides, routePinRequests, sessionEvents } from "./tables";

/** session episodes joined with their activation: route outcome totals, sessions that served routes */
function episodeReads(db: DrizzleD1Database): Pick<RouteLedger, "routeOutcomeTotals" | "sessionsWithServes"> {
  return {
    async routeOutcomeTotals(teamId, since) {
      const rows = await db
        .select({ outcome: sessionEvents.outcome, n: count() })
        .from(sessionEvents)
        .where(
          and(
            eq(sessionEvents.teamId, teamId),
            gte(sessionEvents.createdAt, since),
            // an environment-caused escalation says nothing about routes (activation.ts: routeOutcomeTotals)
            or(isNull(sessionEvents.failureCause), ne(sessionEvents.failureCause, "environment")),
          ),
        )
        .groupBy(sessionEvents.outcome);
      const n = (outcome: string) => rows.find((r) => r.outcome === outcome)?.n ?? 0;
      return { resolved: n("resolved"), failed: n("escalated") };
    },

    async sessionsWithServes(teamId, since, limit) {
      const rows = await db
        .select({
          id: sessionEvents.id,
          session_id: sessionEvents.sessionId,
          session_kind: sessionEvents.sessionKind,
          outcome: sessionEvents.outcome,
          need_fingerprint: sessionEvents.needFingerprint,
          route_id: sessionEvents.routeId,
          route_source: sessionEvents.routeSource,
          failure_cause: sessionEvents.failureCause,
          episode_index: sessionEvents.episodeIndex,
          activation_id: sessionEvents.activationId,
          act_id: memActivations.id,
          act_need: memActivations.needFingerprint,
          act_route: memActivations.routeId,
          created_at: sessionEvents.createdAt,
        })
        .from(sessionEvents)
        .leftJoin(
          memActivations,
          and(eq(memActivations.id, sessionEvents.activationId), eq(memActivations.teamId, sessionEvents.teamId)),
        )
        .where(and(eq(sessionEvents.teamId, teamId), gte(sessionEvents.createdAt, since)))
        .orderBy(asc(sessionEvents.createdAt), asc(sessionEvents.id))
        .limit(limit);
      return rows.map(({ act_id, act_need, act_route, ...r }) => {
        const found = act_id !== null && act_need === r.need_fingerprint;
        return { ...r, activation_found: found, served_route_id: found ? act_route : null };
      });
    },
  };
}

/** one activation of a team, as the route ledger reads it */
function activationRows(db: DrizzleD1Database): Pick<RouteLedger, "activation"> {
  return {
    async activation(teamId, activationId) {
      const [row] = await db
        .select({ needFingerprint: memActivations.needFingerprint, routeId: memActivations.routeId })
        .from(memActivations)
        .where(and(eq(memActivations.teamId, teamId), eq(memActivations.id, activationId)));
      return row ?? null;
    },
  };
}

/** an operator's retired or pinned routes per need */
function overrideRows(db: DrizzleD1Database): Pick<RouteLedger, "overrides" | "retire" | "clear"> {
  return {
    async overrides(teamId, needs) {
      const rows = await db
        .select({
          needFingerprint: routeOverrides.needFingerprint,
          routeId: routeOverrides.routeId,
          state: routeOverrides.state,
        })
        .from(routeOverrides)
        .where(
          and(
            eq(routeOverrides.teamId, teamId),
            needs ? inArray(routeOverrides.needFingerprint, needs.slice(0, 90)) : undefined,
          ),
        );
      return rows as RouteOverrideRow[];
    },

    async retire(teamId, need, route, by, now) {
      await db
        .insert(routeOverrides)
        .values({ teamId, needFingerprint: need, routeId: route, state: "retired", setBy: by, setAt: now })
        .onConflictDoUpdate({
          target: [routeOverrides.teamId, routeOverrides.needFingerprint, routeOverrides.routeId],
          set: { state: "retired", setBy: by, setAt: now },
        });
    },

    async clear(teamId, need, route) {
      const r = await db
        .delete(routeOverrides)
        .where(
          and(
            eq(routeOverrides.teamId, teamId),
            eq(routeOverrides.needFingerprint, need),
            eq(routeOverrides.routeId, route),
          ),
        );
      return r.meta.changes > 0;
    },
  };
}

/** pins waiting behind their deploy gate, and their application */
function pinRequestRows(db: DrizzleD1Database): Pick<RouteLedger, "addPinRequest" | "applyPinRequest"> {
  return {
    async addPinRequest(teamId, need, route, by, now) {
      return insertNextVersion(db, routePinRequests, teamId, {
        needFingerprint: need,
        routeId: route,
        status: "pending",
        requestedBy: by,
        createdAt: now,
      });
    },

    async applyPinRequest(teamId, version, now) {
      const pending = await pendingRequest(db, routePinRequests, teamId, version, now);
      if (!pending) return false;
      const req = pending.request;
      // the pin first: a retried activation sets the same pin again
      await db
        .insert(routeOverrides)
        .values({
          teamId,
          needFingerprint: req.needFingerprint,
          routeId: req.routeId,
          state: "pinned",
          setBy: req.requestedBy,
          setAt: now,
        })
        .onConflictDoUpdate({
          target: [routeOverrides.teamId, routeOverrides.needFingerprint, routeOverrides.routeId],
          set: { state: "pinned", setBy: req.requestedBy, setAt: now },
        });
      return appliedOnce(await pending.markApplied);
    },
  };
}

export function createD1RouteLedger(db: DrizzleD1Database): RouteLedger {
  return { ...episodeReads(db), ...activationRows(db), ...overrideRows(db), ...pinRequestRows(db) };
}
