// SweepStore over D1: guarded lease upserts, retention deletes, archiving, decision counts, guarded ceiling lowering.

import type { SweepStore } from "../../ports/sweep-store";
import { auditInsert } from "./audit-log";

const RANK = (column: string) => `(CASE ${column} WHEN 'enforce' THEN 2 WHEN 'observe' THEN 1 ELSE 0 END)`;
const DELETE_PAGE = 5000;

export function createD1SweepStore(db: D1Database): SweepStore {
  return {
    async acquireLease(name, slot, holder, now, ttlMs) {
      const result = await db
        .prepare(
          `INSERT INTO sweep_lease (name, holder, expires_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE sweep_lease.expires_at <= ? AND substr(sweep_lease.holder, 1, length(?) + 1) <> ? || '|'`,
        )
        .bind(name, holder, now + ttlMs, now, slot, slot)
        .run();
      return result.meta.changes === 1;
    },

    async releaseLease(name, holder, now) {
      await db
        .prepare("UPDATE sweep_lease SET expires_at = ? WHERE name = ? AND holder = ?")
        .bind(now, name, holder)
        .run();
    },

    async deleteApprovalEventsBefore(cutoff) {
      let deleted = 0;
      for (;;) {
        const r = await db
          .prepare(
            `DELETE FROM approval_event WHERE id IN
               (SELECT id FROM approval_event WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
          )
          .bind(cutoff, DELETE_PAGE)
          .run();
        const n = r.meta.changes ?? 0;
        deleted += n;
        if (n < DELETE_PAGE) return deleted;
      }
    },

    async archivePolicyMemory(cutoff, now, auditId) {
      const { results } = await db
        .prepare(
          `UPDATE policy_memory_entry SET archived = 1 WHERE archived = 0 AND last_used < ?
           RETURNING team_id, entry_id`,
        )
        .bind(cutoff)
        .all<{ team_id: string; entry_id: string }>();
      const byTeam = new Map<string, string[]>();
      for (const r of results) byTeam.set(r.team_id, [...(byTeam.get(r.team_id) ?? []), r.entry_id]);
      const out = [...byTeam.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([teamId, entryIds]) => ({ teamId, entryIds: entryIds.sort() }));
      if (out.length > 0) {
        await db.batch(
          out.map((t) =>
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
          ),
        );
      }
      return out;
    },

    async pruneStagedTasks(before) {
      const r = await db.prepare("DELETE FROM run_task_outcome WHERE updated_at < ?").bind(before).run();
      return r.meta.changes ?? 0;
    },

    async teamsWithDecisionsSince(since) {
      const { results } = await db
        .prepare("SELECT DISTINCT team_id FROM policy_decision WHERE created_at >= ? ORDER BY team_id")
        .bind(since)
        .all<{ team_id: string }>();
      return results.map((r) => r.team_id);
    },

    async decisionCounts(teamId, since) {
      const row = await db
        .prepare(
          `SELECT count(*) AS decisions,
             coalesce(sum(selected_action = 'escalate'), 0) AS escalations,
             coalesce(sum(rule_id = 'default.unknown_failure_class'), 0) AS unknown_class,
             coalesce(sum(rule_id = 'default.missing_metadata'), 0) AS missing_metadata
           FROM policy_decision WHERE team_id = ? AND created_at >= ?`,
        )
        .bind(teamId, since)
        .first<{ decisions: number; escalations: number; unknown_class: number; missing_metadata: number }>();
      return {
        decisions: row?.decisions ?? 0,
        escalations: row?.escalations ?? 0,
        unknownClass: row?.unknown_class ?? 0,
        missingMetadata: row?.missing_metadata ?? 0,
      };
    },

    async lowerCeiling(change) {
      const [upsert] = await db.batch([
        db
          .prepare(
            `INSERT INTO team_mode (team_id, ceiling, reason, updated_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (team_id) DO UPDATE SET ceiling = excluded.ceiling, reason = excluded.reason,
               updated_at = excluded.updated_at
             WHERE ${RANK("team_mode.ceiling")} > ${RANK("excluded.ceiling")}`,
          )
          .bind(change.teamId, change.to, change.reason, change.now),
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
