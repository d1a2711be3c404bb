// A team's decision journal in its team object's SQLite: decisions acknowledged and not yet in the decision log.
import { chooseFlush, type JournalEntry } from "../src/features/policy/journal-batch";
import type { LoggedDecision } from "../src/ports/decision-log";

/**
 * The journal's schema step (appended to the team object's schema steps, team-memory-rows.ts): one row per
 * acknowledged decision in append order; `batch` is the flush that claimed it (null until claimed). `decision_done`
 * remembers the ids already flushed for a day, so a repeated append of a logged decision adds nothing.
 */
export const JOURNAL_SCHEMA_STEP: string[] = [
  `CREATE TABLE decision_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, decision_id TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL, body TEXT NOT NULL, batch INTEGER)`,
  "CREATE INDEX decision_journal_batch ON decision_journal (batch)",
  "CREATE TABLE decision_done (decision_id TEXT PRIMARY KEY, flushed_at INTEGER NOT NULL)",
  "CREATE INDEX decision_done_at ON decision_done (flushed_at)",
];

/** A claimed flush: its batch number and its decisions in append order. */
export type JournalFlush = { batch: number; decisions: LoggedDecision[] };

/** The journal's operations; each write is one transaction, so a kill leaves a row whole or absent. */
export class DecisionJournalRows {
  constructor(private readonly storage: DurableObjectStorage) {}

  private get sql() {
    return this.storage.sql;
  }

  /**
   * Appends decisions in ONE statement (atomic on its own: all rows or none); an id already journaled or flushed is
   * skipped. How many were added. No explicit transaction on purpose: `transactionSync` commits at once (a disk sync
   * per append, and it first commits any open implicit write), while a plain statement joins the object's implicit
   * transaction, so the appends of concurrent RPCs share one commit. The RPC's answer is still held by the output
   * gate until that commit is durable.
   */
  append(decisions: readonly LoggedDecision[]): string[] {
    if (!decisions.length) return [];
    const rows = decisions.map((d) => [d.decision_id, d.created_at, JSON.stringify(d)]);
    return this.sql
      .exec(
        `INSERT INTO decision_journal (decision_id, created_at, body)
         SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(?) AS j
         WHERE NOT EXISTS (SELECT 1 FROM decision_done WHERE decision_id = j.value ->> 0)
         ORDER BY j.key
         ON CONFLICT (decision_id) DO NOTHING RETURNING decision_id`,
        JSON.stringify(rows),
      )
      .toArray()
      .map((r) => r.decision_id as string);
  }

  /**
   * The next flush (chooseFlush): an unfinished claimed batch again, else the oldest ≤ `limit` rows, claimed now
   * (durably, before any write of the log) so that a retry after a kill writes the same batch. Null when empty.
   */
  claimFlush(limit: number): JournalFlush | null {
    const entries = this.sql
      .exec<{ seq: number; decision_id: string; batch: number | null }>(
        `SELECT seq, decision_id, batch FROM decision_journal WHERE batch IS NOT NULL
         UNION ALL SELECT * FROM (SELECT seq, decision_id, batch FROM decision_journal WHERE batch IS NULL
           ORDER BY seq LIMIT ?)`,
        limit,
      )
      .toArray()
      .map((r): JournalEntry => ({ seq: r.seq, decisionId: r.decision_id, batch: r.batch }));
    const choice = chooseFlush(entries, limit);
    if (!choice) return null;
    const seqs = JSON.stringify(choice.seqs);
    if (choice.fresh)
      this.sql.exec(
        "UPDATE decision_journal SET batch = ? WHERE seq IN (SELECT value FROM json_each(?))",
        choice.batch,
        seqs,
      );
    const decisions = this.sql
      .exec<{ body: string }>(
        "SELECT body FROM decision_journal WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq",
        seqs,
      )
      .toArray()
      .map((r) => JSON.parse(r.body) as LoggedDecision);
    return { batch: choice.batch, decisions };
  }

  /** The batch is in the log: its rows leave the journal and their ids are remembered (one transaction). */
  finishFlush(batch: number, now: number): number {
    return this.storage.transactionSync(() => {
      this.sql.exec(
        `INSERT INTO decision_done (decision_id, flushed_at) SELECT decision_id, ? FROM decision_journal WHERE batch = ?
         ON CONFLICT DO NOTHING`,
        now,
        batch,
      );
      return this.sql.exec("DELETE FROM decision_journal WHERE batch = ? RETURNING seq", batch).toArray().length;
    });
  }

  /** Forgets flushed ids older than `before`; how many. */
  pruneDone(before: number): number {
    return this.sql.exec("DELETE FROM decision_done WHERE flushed_at < ? RETURNING decision_id", before).toArray()
      .length;
  }

  /** Rows waiting for the log. */
  pending(): number {
    return this.sql.exec<{ c: number }>("SELECT count(*) AS c FROM decision_journal").one().c;
  }

  /** The waiting decisions in append order (tests, the drill's inspection). */
  list(): LoggedDecision[] {
    return this.sql
      .exec<{ body: string }>("SELECT body FROM decision_journal ORDER BY seq")
      .toArray()
      .map((r) => JSON.parse(r.body) as LoggedDecision);
  }
}
