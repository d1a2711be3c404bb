// LearningStore over D1: idempotency keys, staged task outcomes, signatures, policy memory. Reads of processed_event
// and run_task_outcome and the gate_metric upsert are drizzle (typed rows); the rest is still raw prepared statements.
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { err, ok } from "../../lib/result";
import {
  type EntryWrite,
  type LearningCommit,
  type LearningConflict,
  type LearningState,
  type LearningStore,
  type LedgerHead,
  type RetryWrite,
  retryEntryId,
  type StoredWithLedger,
} from "../../ports/learning-store";
import { auditInsertD1 } from "./audit-log";
import { gateMetrics, policyMemoryEntries, processedEvents, runTaskOutcomes } from "./schema";

/**
 * Archiving of decayed entries (policy_memory_entry is this module's table), for the retention sweep: flags the
 * entries unused since `cutoff` and returns them.
 */
export function archivePolicyMemoryStatement(db: DrizzleD1Database, cutoff: number) {
  return db
    .update(policyMemoryEntries)
    .set({ archived: true })
    .where(and(eq(policyMemoryEntries.archived, false), lt(policyMemoryEntries.lastUsed, cutoff)))
    .returning({ teamId: policyMemoryEntries.teamId, entryId: policyMemoryEntries.entryId });
}

/** Pruning of staged task outcomes last touched before `before` (run_task_outcome is this module's table). */
export function pruneStagedTasksStatement(db: DrizzleD1Database, before: number) {
  return db.delete(runTaskOutcomes).where(lt(runTaskOutcomes.updatedAt, before));
}

/** D1 binds at most 100 parameters per statement. */
const IN_CHUNK = 90;

const ENTRY_COLUMNS = `entry_id, team_id, skill_name, context_hash, success_count, failure_count, avg_cost_units,
  avg_steps, base_weight, recent_outcomes, learning_stopped, archived, last_used, created_at, ledger_seq`;
const RETRY_COLUMNS = `team_id, failure_class, recovered_count, exhausted_count, recovery_attempts_sum,
  backoff_multiplier, max_attempts_override, ledger_seq, updated_at`;

function parseHead(value: unknown): LedgerHead | null {
  if (typeof value !== "string") return null;
  try {
    const head = JSON.parse(value) as { seq: number; change: string | null };
    const change = typeof head.change === "string" ? (JSON.parse(head.change) as Record<string, unknown>) : null;
    const after = change && typeof change.after === "object" ? (change.after as Record<string, unknown>) : null;
    return { seq: head.seq, after };
  } catch {
    return { seq: -1, after: null };
  }
}

/** Maps a failed batch to a conflict the use-case understands; anything else is rethrown as is. */
function translate(e: unknown): { ok: false; error: LearningConflict } {
  const text = String(e);
  if (/UNIQUE constraint failed: processed_event\.event_id/i.test(text)) {
    return err({ kind: "already_processed", message: "event applied by another delivery" });
  }
  if (
    /NOT NULL constraint failed: policy_memory_ledger\.entry_id/i.test(text) ||
    /UNIQUE constraint failed: (policy_memory_ledger|policy_memory_entry|retry_adjustment)\./i.test(text)
  ) {
    return err({ kind: "state_moved", message: "policy memory changed under this write" });
  }
  throw e;
}

/** an entry row with the newest ledger row of its entry (what the ledger says the entry is) */
const ENTRY_WITH_HEAD = `SELECT ${ENTRY_COLUMNS},
    (SELECT json_object('seq', l.seq, 'change', l.change) FROM policy_memory_ledger l
      WHERE l.entry_id = e.entry_id AND l.team_id = e.team_id ORDER BY l.seq DESC LIMIT 1) AS ledger_head
  FROM policy_memory_entry e`;

export function createD1LearningStore(db: D1Database): LearningStore {
  // typed queries; the statements still on `db` (raw) move here one by one
  const orm = drizzle(db);
  const ledgerInsert = (w: EntryWrite | RetryWrite): D1PreparedStatement => {
    let guard: string;
    let guardArgs: unknown[];
    if (w.target === "entry") {
      if (w.expect.kind === "none") {
        guard = `(SELECT ? WHERE NOT EXISTS (SELECT 1 FROM policy_memory_entry
                   WHERE team_id = ? AND skill_name = ? AND context_hash = ?))`;
        guardArgs = [w.entryId, w.teamId, w.state.skill_name, w.state.context_hash];
      } else if (w.expect.kind === "seq") {
        guard = "(SELECT entry_id FROM policy_memory_entry WHERE entry_id = ? AND ledger_seq = ?)";
        guardArgs = [w.entryId, w.expect.seq];
      } else {
        guard = "(SELECT entry_id FROM policy_memory_entry WHERE entry_id = ?)";
        guardArgs = [w.entryId];
      }
    } else if (w.expect.kind === "none") {
      guard = "(SELECT ? WHERE NOT EXISTS (SELECT 1 FROM retry_adjustment WHERE team_id = ? AND failure_class = ?))";
      guardArgs = [w.entryId, w.teamId, w.state.failure_class];
    } else if (w.expect.kind === "seq") {
      guard = "(SELECT ? FROM retry_adjustment WHERE team_id = ? AND failure_class = ? AND ledger_seq = ?)";
      guardArgs = [w.entryId, w.teamId, w.state.failure_class, w.expect.seq];
    } else {
      guard = "(SELECT ? FROM retry_adjustment WHERE team_id = ? AND failure_class = ?)";
      guardArgs = [w.entryId, w.teamId, w.state.failure_class];
    }
    // entry_id is NOT NULL: when the guard finds the state moved, the subquery yields NULL and the batch aborts.
    return db
      .prepare(
        `INSERT INTO policy_memory_ledger (id, team_id, run_id, entry_id, skill_name, change, created_at, seq)
         VALUES (?, ?, ?, ${guard}, ?, ?, ?, ?)`,
      )
      .bind(w.ledgerId, w.teamId, w.runId, ...guardArgs, w.ledgerKey, JSON.stringify(w.change), w.createdAt, w.seq);
  };

  const stateWrite = (w: EntryWrite | RetryWrite): D1PreparedStatement => {
    if (w.target === "entry") {
      const s = w.state;
      const values = [
        s.success_count,
        s.failure_count,
        s.avg_cost_units,
        s.avg_steps,
        s.base_weight,
        JSON.stringify(s.recent_outcomes),
        s.learning_stopped ? 1 : 0,
        s.archived ? 1 : 0,
        s.last_used,
        s.ledger_seq,
      ];
      if (w.expect.kind === "none") {
        return db
          .prepare(
            `INSERT INTO policy_memory_entry (entry_id, team_id, skill_name, context_hash, created_at, success_count,
               failure_count, avg_cost_units, avg_steps, base_weight, recent_outcomes, learning_stopped, archived,
               last_used, ledger_seq)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(s.entry_id, s.team_id, s.skill_name, s.context_hash, s.created_at, ...values);
      }
      return db
        .prepare(
          `UPDATE policy_memory_entry SET success_count = ?, failure_count = ?, avg_cost_units = ?, avg_steps = ?,
             base_weight = ?, recent_outcomes = ?, learning_stopped = ?, archived = ?, last_used = ?, ledger_seq = ?,
             created_at = ?
           WHERE entry_id = ?`,
        )
        .bind(...values, s.created_at, s.entry_id);
    }
    const s = w.state;
    const values = [
      s.recovered_count,
      s.exhausted_count,
      s.recovery_attempts_sum,
      s.backoff_multiplier,
      s.max_attempts_override,
      s.ledger_seq,
      s.updated_at,
    ];
    if (w.expect.kind === "none") {
      return db
        .prepare(
          `INSERT INTO retry_adjustment (team_id, failure_class, recovered_count, exhausted_count,
             recovery_attempts_sum, backoff_multiplier, max_attempts_override, ledger_seq, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(s.team_id, s.failure_class, ...values);
    }
    return db
      .prepare(
        `UPDATE retry_adjustment SET recovered_count = ?, exhausted_count = ?, recovery_attempts_sum = ?,
           backoff_multiplier = ?, max_attempts_override = ?, ledger_seq = ?, updated_at = ?
         WHERE team_id = ? AND failure_class = ?`,
      )
      .bind(...values, s.team_id, s.failure_class);
  };

  return {
    async processedAmong(eventIds) {
      const found = new Set<string>();
      const ids = [...new Set(eventIds)];
      const reads = [];
      for (let i = 0; i < ids.length; i += IN_CHUNK) {
        reads.push(
          orm
            .select({ eventId: processedEvents.eventId })
            .from(processedEvents)
            .where(inArray(processedEvents.eventId, ids.slice(i, i + IN_CHUNK))),
        );
      }
      const [first, ...rest] = reads;
      if (!first) return found;
      const results = await orm.batch([first, ...rest]);
      for (const rows of results) for (const row of rows) found.add(row.eventId);
      return found;
    },

    async applyTaskSignals(signals, now) {
      const statements: D1PreparedStatement[] = [];
      const countAt = new Map<string, number>();
      for (const s of signals) {
        statements.push(
          db
            .prepare("INSERT INTO processed_event (event_id, type, processed_at) VALUES (?, ?, ?)")
            .bind(s.eventId, s.type, now),
        );
        const failed = s.type === "task.failed" ? 1 : 0;
        const blocked = s.type === "task.blocked" ? 1 : 0;
        const failureClass = s.type === "task.completed" ? null : s.failureClass;
        statements.push(
          db
            .prepare(
              `INSERT INTO run_task_outcome (team_id, run_id, task_id, skill, context, succeeded, failures, blocks,
                 first_failure_class, last_failure_class, attempts, cost_units, steps, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (team_id, run_id, task_id) DO UPDATE SET
                 skill = COALESCE(run_task_outcome.skill, excluded.skill),
                 context = COALESCE(run_task_outcome.context, excluded.context),
                 succeeded = MAX(run_task_outcome.succeeded, excluded.succeeded),
                 failures = run_task_outcome.failures + excluded.failures,
                 blocks = run_task_outcome.blocks + excluded.blocks,
                 first_failure_class = COALESCE(run_task_outcome.first_failure_class, excluded.first_failure_class),
                 last_failure_class = COALESCE(excluded.last_failure_class, run_task_outcome.last_failure_class),
                 attempts = MAX(run_task_outcome.attempts, excluded.attempts),
                 cost_units = run_task_outcome.cost_units + excluded.cost_units,
                 steps = MAX(run_task_outcome.steps, excluded.steps),
                 updated_at = MAX(run_task_outcome.updated_at, excluded.updated_at)`,
            )
            .bind(
              s.teamId,
              s.runId,
              s.taskId,
              s.skill,
              s.context,
              s.type === "task.completed" ? 1 : 0,
              failed,
              blocked,
              failureClass,
              failureClass,
              s.attempt ?? 0,
              s.costUnits,
              s.steps ?? 0,
              s.occurredAt,
            ),
        );
        if (s.signature) {
          countAt.set(s.eventId, statements.length);
          statements.push(
            db
              .prepare(
                `INSERT INTO failure_signature (team_id, signature, count, task_key, reason, exit_code_bucket,
                   first_seen_at, last_seen_at)
                 VALUES (?, ?, 1, ?, ?, ?, ?, ?)
                 ON CONFLICT (team_id, signature) DO UPDATE SET count = failure_signature.count + 1,
                   last_seen_at = MAX(failure_signature.last_seen_at, excluded.last_seen_at)
                 RETURNING count`,
              )
              .bind(
                s.teamId,
                s.signature.hash,
                s.signature.taskKey,
                s.signature.reason,
                s.signature.exitCodeBucket,
                s.occurredAt,
                s.occurredAt,
              ),
          );
        }
      }
      const counts = new Map<string, number | null>();
      if (statements.length === 0) return ok(counts);
      let results: D1Result[];
      try {
        results = await db.batch(statements);
      } catch (e) {
        return translate(e);
      }
      for (const s of signals) {
        const at = countAt.get(s.eventId);
        const row = at === undefined ? undefined : (results[at]?.results[0] as { count: number } | undefined);
        counts.set(s.eventId, row ? row.count : null);
      }
      return ok(counts);
    },

    async stagedTasks(teamId, runId) {
      const t = runTaskOutcomes;
      return orm
        .select({
          task_id: t.taskId,
          skill: t.skill,
          context: t.context,
          succeeded: t.succeeded,
          failures: t.failures,
          blocks: t.blocks,
          first_failure_class: t.firstFailureClass,
          last_failure_class: t.lastFailureClass,
          attempts: t.attempts,
          cost_units: t.costUnits,
          steps: t.steps,
        })
        .from(t)
        .where(and(eq(t.teamId, teamId), eq(t.runId, runId)))
        .orderBy(asc(t.taskId));
    },

    async loadLearningState(teamId, runId, entries, failureClasses) {
      const statements: D1PreparedStatement[] = [
        db.prepare("SELECT skill_name FROM policy_memory_ledger WHERE team_id = ? AND run_id = ?").bind(teamId, runId),
      ];
      for (const e of entries) {
        statements.push(
          db
            .prepare(`${ENTRY_WITH_HEAD} WHERE e.team_id = ? AND e.skill_name = ? AND e.context_hash = ?`)
            .bind(teamId, e.skill, e.contextHash),
        );
      }
      for (const cls of failureClasses) {
        statements.push(
          db
            .prepare(
              `SELECT ${RETRY_COLUMNS},
                 (SELECT json_object('seq', l.seq, 'change', l.change) FROM policy_memory_ledger l
                   WHERE l.entry_id = ? AND l.team_id = r.team_id ORDER BY l.seq DESC LIMIT 1) AS ledger_head
               FROM retry_adjustment r WHERE r.team_id = ? AND r.failure_class = ?`,
            )
            .bind(retryEntryId(teamId, cls), teamId, cls),
        );
      }
      const results = await db.batch<Record<string, unknown>>(statements);
      const state: LearningState = {
        learned: new Set((results[0]?.results ?? []).map((r) => String(r.skill_name))),
        entries: new Map(),
        retries: new Map(),
      };
      const split = (row: Record<string, unknown>): StoredWithLedger => {
        const { ledger_head, ...rest } = row;
        return { row: rest, head: parseHead(ledger_head) };
      };
      entries.forEach((e, i) => {
        const row = results[1 + i]?.results[0];
        if (row) state.entries.set(`${e.skill}\u0000${e.contextHash}`, split(row));
      });
      failureClasses.forEach((cls, i) => {
        const row = results[1 + entries.length + i]?.results[0];
        if (row) state.retries.set(cls, split(row));
      });
      return state;
    },

    async commitLearning(commit: LearningCommit) {
      const statements: D1PreparedStatement[] = [
        db
          .prepare("INSERT INTO processed_event (event_id, type, processed_at) VALUES (?, ?, ?)")
          .bind(commit.eventId, commit.eventType ?? "run.completed", commit.now),
      ];
      for (const w of commit.writes) statements.push(ledgerInsert(w), stateWrite(w));
      if (commit.audit) {
        statements.push(
          auditInsertD1(db, {
            id: commit.audit.id,
            teamId: commit.teamId,
            actor: commit.audit.actor ?? "learning",
            action: commit.audit.action,
            subjectType: commit.audit.subject?.type ?? "run",
            subjectId: commit.audit.subject?.id ?? commit.runId,
            metadata: commit.audit.metadata,
            createdAt: commit.now,
          }),
        );
      }
      statements.push(
        db.prepare("DELETE FROM run_task_outcome WHERE team_id = ? AND run_id = ?").bind(commit.teamId, commit.runId),
      );
      try {
        await db.batch(statements);
      } catch (e) {
        return translate(e);
      }
      return ok(undefined);
    },

    async entryById(teamId, entryId) {
      const row = await db
        .prepare(`${ENTRY_WITH_HEAD} WHERE e.team_id = ? AND e.entry_id = ?`)
        .bind(teamId, entryId)
        .first<Record<string, unknown>>();
      if (!row) return null;
      const { ledger_head, ...rest } = row;
      return { row: rest, head: parseHead(ledger_head) };
    },

    async snapshotRows(teamId) {
      const [entries, retries] = await db.batch<Record<string, unknown>>([
        db
          .prepare(
            `SELECT ${ENTRY_COLUMNS} FROM policy_memory_entry WHERE team_id = ?
             ORDER BY skill_name, context_hash, entry_id LIMIT 10000`,
          )
          .bind(teamId),
        db
          .prepare(`SELECT ${RETRY_COLUMNS} FROM retry_adjustment WHERE team_id = ? ORDER BY failure_class LIMIT 1000`)
          .bind(teamId),
      ]);
      return { entries: entries?.results ?? [], retries: retries?.results ?? [] };
    },

    async recordGateEvents(rows) {
      if (rows.length === 0) return;
      const g = gateMetrics;
      // keep the known value of each column: the incoming one, else the stored one (opened_at: the first seen)
      const keep = (column: SQLiteColumn, name: string) => sql`COALESCE(${sql.raw(`excluded.${name}`)}, ${column})`;
      const [first, ...rest] = rows.map((r) =>
        orm
          .insert(g)
          .values(r)
          .onConflictDoUpdate({
            target: [g.teamId, g.gateId],
            set: {
              policyKey: keep(g.policyKey, "policy_key"),
              kind: keep(g.kind, "kind"),
              openedAt: sql`COALESCE(${g.openedAt}, excluded.opened_at)`,
              decidedAt: keep(g.decidedAt, "decided_at"),
              decision: keep(g.decision, "decision"),
              decidedBy: keep(g.decidedBy, "decided_by"),
              latencyMs: keep(g.latencyMs, "latency_ms"),
            },
          }),
      );
      if (first) await orm.batch([first, ...rest]);
    },
  };
}
