// SweepStore over D1 (drizzle, typed rows): guarded lease upserts, decision counts. Retention deletes, archiving,
// staged-task pruning and ceiling lowering run the owners' statements (run-record.ts, policy-memory-writes.ts,
// task-outcomes.ts, policy-store.ts).
import { and, eq, lte, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { auditInsert } from "../../audit";
import { archivePolicyMemoryStatement, pruneStagedTasksStatement } from "../../learning";
import { lowerCeilingStatement } from "../../policy";
import { deleteApprovalEventsPageStatement } from "../../runs";
import type { SweepStore } from "./sweep-store-port";
import { sweepLeases } from "./tables";

const DELETE_PAGE = 5000;

/** the sweep leases (sweep_lease): who runs a sweep until when */
function sweepLeaseRows(db: DrizzleD1Database): Pick<SweepStore, "acquireLease" | "releaseLease"> {
  return {
    async acquireLease(name, slot, holder, now, ttlMs) {
      const result = await db
        .insert(sweepLeases)
        .values({ name, holder, expiresAt: now + ttlMs })
        .onConflictDoUpdate({
          target: sweepLeases.name,
          set: { holder: sql`excluded.holder`, expiresAt: sql`excluded.expires_at` },
          // taken over only once expired, and never by another invocation of the same slot
          setWhere: and(
            lte(sweepLeases.expiresAt, now),
            sql`substr(${sweepLeases.holder}, 1, length(${slot}) + 1) <> ${slot} || '|'`,
          ),
        })
        .run();
      return result.meta.changes === 1;
    },

    async releaseLease(name, holder, now) {
      await db
        .update(sweepLeases)
        .set({ expiresAt: now })
        .where(and(eq(sweepLeases.name, name), eq(sweepLeases.holder, holder)))
        .run();
    },
  };
}

/** the approval retention pass and the runs the learning reconciliation re-sends */
function retentionReads(db: DrizzleD1Database): Pick<SweepStore, "deleteApprovalEventsBefore" | "unlearnedRuns"> {
  return {
    async deleteApprovalEventsBefore(cutoff) {
      let deleted = 0;
      for (;;) {
        const r = await deleteApprovalEventsPageStatement(db, cutoff, DELETE_PAGE).run();
        const n = r.meta.changes ?? 0;
        deleted += n;
        if (n < DELETE_PAGE) return deleted;
      }
    },

    async unlearnedRuns(from, to, limit) {
      // run.completed ids are `evt_<run_id>_<seq>`: a range on the key, then digits only after it (run ids may share
      // a prefix with another run's id followed by "_")
      const completionOf = (table: string) =>
        sql.raw(
          `${table}.event_id >= 'evt_' || r.run_id || '_' AND ${table}.event_id < 'evt_' || r.run_id || '\`' ` +
            `AND substr(${table}.event_id, length(r.run_id) + 6) NOT GLOB '*[^0-9]*'`,
        );
      const rows = await db.all<{ run_id: string; team_id: string }>(sql`
        SELECT r.run_id, r.team_id FROM runs r
        WHERE r.status IN ('COMPLETE', 'DEAD_LETTER', 'STOPPED') AND r.kind = 'agent'
          AND r.updated_at >= ${from} AND r.updated_at <= ${to}
          AND NOT EXISTS (SELECT 1 FROM processed_event p WHERE p.type = 'run.completed' AND ${completionOf("p")})
          AND NOT EXISTS (SELECT 1 FROM event_dead_letter d
            WHERE d.team_id = r.team_id AND d.type = 'run.completed' AND ${completionOf("d")})
        ORDER BY r.updated_at LIMIT ${limit}`);
      return rows.map((r) => ({ runId: r.run_id, teamId: r.team_id }));
    },
  };
}

/** changes the sweeps make to other owners' tables, each through its owner's statement */
function ownerStatements(
  db: DrizzleD1Database,
): Pick<SweepStore, "archivePolicyMemory" | "pruneStagedTasks" | "lowerCeiling"> {
  return {
    async archivePolicyMemory(cutoff, now, auditId) {
      const results = await archivePolicyMemoryStatement(db, cutoff);
      const byTeam = new Map<string, string[]>();
      for (const r of results) byTeam.set(r.teamId, [...(byTeam.get(r.teamId) ?? []), r.entryId]);
      const out = [...byTeam.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([teamId, entryIds]) => ({ teamId, entryIds: entryIds.sort() }));
      const audits = out.map((t) =>
        auditInsert(db, {
          id: auditId(),
          teamId: t.teamId,
          actor: "sweep",
          action: "policy_memory.archived",
          subjectType: "policy_memory",
          subjectId: t.teamId,
          metadata: { entry_ids: t.entryIds, cutoff },
          createdAt: now,
        }),
      );
      await batchAll(db, audits);
      return out;
    },

    async pruneStagedTasks(before) {
      const r = await pruneStagedTasksStatement(db, before).run();
      return r.meta.changes ?? 0;
    },

    async lowerCeiling(change) {
      const [upsert] = await db.batch([
        lowerCeilingStatement(db, change),
        // written only when the statement above changed the ceiling (same transaction)
        auditInsert(
          db,
          {
            id: change.audit.id,
            teamId: change.teamId,
            actor: change.audit.actor,
            action: "policy.rollback",
            subjectType: "team_mode",
            subjectId: change.teamId,
            metadata: { ...change.audit.metadata, from: change.from, to: change.to },
            createdAt: change.now,
          },
          { onlyIfChanged: true },
        ),
      ]);
      return (upsert?.meta.changes ?? 0) === 1;
    },
  };
}

export function createD1SweepStore(db: DrizzleD1Database): SweepStore {
  return { ...sweepLeaseRows(db), ...retentionReads(db), ...ownerStatements(db) };
}
