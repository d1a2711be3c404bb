// The board's SQLite tables inside its Durable Object (board_item, board_persona, board_settings, board_lease_log,
// board_alert): the one module that writes them.
import type { BoardRow, BoardSettings, Persona } from "../../ports/board";
import type { Candidate } from "./dispatch";

/** The object's SQL storage, as much of it as the board uses (ctx.storage.sql). */
export type BoardSql = {
  exec<T extends Record<string, SqlStorageValue>>(
    query: string,
    ...bindings: unknown[]
  ): { toArray(): T[]; rowsWritten: number };
};

/** rows of board_lease_log older than this are pruned (the persona view sums the last 7 days of tokens) */
export const LOG_KEPT_MS = 7 * 86_400_000;
export const DEFAULT_SETTINGS: BoardSettings = {
  max_ready: null,
  max_tokens_per_hour: null,
  persona_wait_alert_ms: 10 * 60_000,
};
const ENDED = new Set(["passed", "dead_letter", "skipped", "cancelled"]);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS board_item (
  run_id TEXT NOT NULL, item_id TEXT NOT NULL, state TEXT NOT NULL, priority INTEGER NOT NULL,
  persona_id TEXT, skill TEXT, epoch INTEGER NOT NULL, leasable_at INTEGER, ready_at INTEGER,
  tokens INTEGER NOT NULL DEFAULT 0, reserved INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, item_id));
CREATE INDEX IF NOT EXISTS board_item_state ON board_item (state, priority);
CREATE TABLE IF NOT EXISTS board_persona (
  persona_id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, concurrency_limit INTEGER NOT NULL,
  enabled INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS board_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1), max_ready INTEGER, max_tokens_per_hour INTEGER,
  persona_wait_alert_ms INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS board_lease_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, kind TEXT NOT NULL, run_id TEXT NOT NULL,
  item_id TEXT NOT NULL, persona_id TEXT, tokens INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS board_lease_log_at ON board_lease_log (at);
CREATE TABLE IF NOT EXISTS board_alert (kind TEXT PRIMARY KEY, window_start INTEGER NOT NULL);`;

/** a board_item row: the run object's BoardRow, whose run it is, and whether a lease in flight holds it (reserved = 1) */
type ItemRow = Omit<BoardRow, "state"> & { run_id: string; state: string; reserved: number };

export class BoardStore {
  constructor(private readonly sql: BoardSql) {
    sql.exec(SCHEMA);
    // a fresh object has no lease call in flight: a reservation left by an instance that died mid-call goes back to
    // ready (if the run did grant it, the run's sync brings the lease, with its higher epoch)
    sql.exec("UPDATE board_item SET state = 'ready', reserved = 0 WHERE reserved = 1");
  }

  /**
   * Applies a run's rows: an ended item leaves the board, the others are upserted unless older than what the board
   * holds (a lower epoch, or not newer than a lease the board is asking for). Token growth is logged per persona.
   */
  sync(runId: string, rows: readonly BoardRow[], now: number): void {
    for (const r of rows) {
      const cur = this.item(runId, r.item_id);
      if (cur && (r.epoch < cur.epoch || (cur.reserved === 1 && r.epoch <= cur.epoch))) continue;
      const grown = r.tokens - (cur?.tokens ?? 0);
      if (grown > 0) this.log(now, "tokens", runId, r.item_id, r.persona_id, grown);
      if (ENDED.has(r.state)) {
        this.sql.exec("DELETE FROM board_item WHERE run_id = ? AND item_id = ?", runId, r.item_id);
        continue;
      }
      this.sql.exec(
        `INSERT INTO board_item (run_id, item_id, state, priority, persona_id, skill, epoch, leasable_at, ready_at, tokens, reserved)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE((SELECT reserved FROM board_item WHERE run_id = ? AND item_id = ?), 0))
         ON CONFLICT (run_id, item_id) DO UPDATE SET state = excluded.state, priority = excluded.priority,
           persona_id = excluded.persona_id, skill = excluded.skill, epoch = excluded.epoch,
           leasable_at = excluded.leasable_at, ready_at = excluded.ready_at, tokens = excluded.tokens`,
        runId,
        r.item_id,
        r.state,
        r.priority,
        r.persona_id,
        r.skill,
        r.epoch,
        r.leasable_at,
        r.ready_at,
        r.tokens,
        runId,
        r.item_id,
      );
    }
  }

  private item(runId: string, itemId: string): ItemRow | undefined {
    return this.sql
      .exec<ItemRow>("SELECT * FROM board_item WHERE run_id = ? AND item_id = ?", runId, itemId)
      .toArray()[0];
  }

  /** Ready items nobody is being granted right now. */
  candidates(): Candidate[] {
    return this.sql
      .exec<ItemRow>("SELECT * FROM board_item WHERE state = 'ready' AND reserved = 0")
      .toArray()
      .map((r) => ({
        run_id: r.run_id,
        item_id: r.item_id,
        priority: r.priority,
        persona_id: r.persona_id,
        skill: r.skill,
        ready_at: r.ready_at ?? 0,
        leasable_at: r.leasable_at,
      }));
  }

  /** Marks the item leased while its run object is asked; false when someone else took it first. */
  reserve(runId: string, itemId: string): boolean {
    return (
      this.sql.exec(
        "UPDATE board_item SET state = 'leased', reserved = 1 WHERE run_id = ? AND item_id = ? AND state = 'ready' AND reserved = 0",
        runId,
        itemId,
      ).rowsWritten > 0
    );
  }

  /** The run object granted the lease: the board holds it at that epoch, and logs it for the fair share. */
  granted(c: Candidate, epoch: number, now: number): void {
    this.sql.exec(
      "UPDATE board_item SET state = 'leased', reserved = 0, epoch = MAX(epoch, ?) WHERE run_id = ? AND item_id = ?",
      epoch,
      c.run_id,
      c.item_id,
    );
    this.log(now, "lease", c.run_id, c.item_id, c.persona_id, 0);
  }

  /** The run object refused: back to ready (from `leasableAt`; null = until the run says otherwise), or gone. */
  refused(c: Candidate, leasableAt: number | null, gone: boolean): void {
    if (gone) {
      this.sql.exec("DELETE FROM board_item WHERE run_id = ? AND item_id = ? AND reserved = 1", c.run_id, c.item_id);
      return;
    }
    this.sql.exec(
      "UPDATE board_item SET state = 'ready', reserved = 0, leasable_at = ? WHERE run_id = ? AND item_id = ? AND reserved = 1",
      leasableAt,
      c.run_id,
      c.item_id,
    );
  }

  leasedByPersona(): Map<string, number> {
    const rows = this.sql
      .exec<{ persona_id: string; n: number }>(
        "SELECT persona_id, COUNT(*) AS n FROM board_item WHERE state = 'leased' AND persona_id IS NOT NULL GROUP BY persona_id",
      )
      .toArray();
    return new Map(rows.map((r) => [r.persona_id, r.n]));
  }

  /** Leases per run since `since`, counting the ones being asked for right now (concurrent lease-next calls). */
  recentLeasesByRun(since: number): Map<string, number> {
    const rows = this.sql
      .exec<{ run_id: string; n: number }>(
        `SELECT run_id, SUM(n) AS n FROM (
           SELECT run_id, COUNT(*) AS n FROM board_lease_log WHERE kind = 'lease' AND at > ? GROUP BY run_id
           UNION ALL SELECT run_id, COUNT(*) AS n FROM board_item WHERE reserved = 1 GROUP BY run_id)
         GROUP BY run_id`,
        since,
      )
      .toArray();
    return new Map(rows.map((r) => [r.run_id, r.n]));
  }

  tokensSince(since: number, personaId?: string): number {
    const q = personaId === undefined ? "" : " AND persona_id = ?";
    const binds = personaId === undefined ? [since] : [since, personaId];
    const row = this.sql
      .exec<{ n: number | null }>(
        `SELECT SUM(tokens) AS n FROM board_lease_log WHERE kind = 'tokens' AND at > ?${q}`,
        ...binds,
      )
      .toArray()[0];
    return row?.n ?? 0;
  }

  /** Items by state, persona and priority, for the board and persona views. */
  counts(): { state: string; persona_id: string | null; priority: number; n: number; oldest: number | null }[] {
    return this.sql
      .exec<{ state: string; persona_id: string | null; priority: number; n: number; oldest: number | null }>(
        `SELECT state, persona_id, priority, COUNT(*) AS n, MIN(ready_at) AS oldest FROM board_item
         GROUP BY state, persona_id, priority ORDER BY state, persona_id, priority DESC`,
      )
      .toArray();
  }

  oldestReady(): { run_id: string; item_id: string; ready_at: number; persona_id: string | null } | undefined {
    return this.sql
      .exec<{ run_id: string; item_id: string; ready_at: number; persona_id: string | null }>(
        "SELECT run_id, item_id, ready_at, persona_id FROM board_item WHERE state = 'ready' ORDER BY ready_at, run_id, item_id LIMIT 1",
      )
      .toArray()[0];
  }

  readyCount(): number {
    return (
      this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM board_item WHERE state = 'ready'").toArray()[0]?.n ?? 0
    );
  }

  personas(): Persona[] {
    return this.sql
      .exec<{ persona_id: string; name: string; role: string; concurrency_limit: number; enabled: number }>(
        "SELECT persona_id, name, role, concurrency_limit, enabled FROM board_persona ORDER BY persona_id",
      )
      .toArray()
      .map((p) => ({ ...p, enabled: p.enabled === 1 }));
  }

  putPersona(p: Persona, now: number): void {
    this.sql.exec(
      `INSERT INTO board_persona (persona_id, name, role, concurrency_limit, enabled, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (persona_id) DO UPDATE SET name = excluded.name, role = excluded.role,
         concurrency_limit = excluded.concurrency_limit, enabled = excluded.enabled, updated_at = excluded.updated_at`,
      p.persona_id,
      p.name,
      p.role,
      p.concurrency_limit,
      p.enabled ? 1 : 0,
      now,
    );
  }

  settings(): BoardSettings {
    const row = this.sql
      .exec<BoardSettings & { id: number; updated_at: number }>("SELECT * FROM board_settings WHERE id = 1")
      .toArray()[0];
    if (!row) return DEFAULT_SETTINGS;
    return {
      max_ready: row.max_ready,
      max_tokens_per_hour: row.max_tokens_per_hour,
      persona_wait_alert_ms: row.persona_wait_alert_ms,
    };
  }

  putSettings(s: BoardSettings, now: number): void {
    this.sql.exec(
      `INSERT INTO board_settings (id, max_ready, max_tokens_per_hour, persona_wait_alert_ms, updated_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET max_ready = excluded.max_ready, max_tokens_per_hour = excluded.max_tokens_per_hour,
         persona_wait_alert_ms = excluded.persona_wait_alert_ms, updated_at = excluded.updated_at`,
      s.max_ready,
      s.max_tokens_per_hour,
      s.persona_wait_alert_ms,
      now,
    );
  }

  /** Claims the alert of `kind` for the window starting at `windowStart`: false when it was raised in it already. */
  claimAlert(kind: string, windowStart: number): boolean {
    return (
      this.sql.exec(
        `INSERT INTO board_alert (kind, window_start) VALUES (?, ?)
         ON CONFLICT (kind) DO UPDATE SET window_start = excluded.window_start WHERE window_start < excluded.window_start`,
        kind,
        windowStart,
      ).rowsWritten > 0
    );
  }

  /** Per disabled persona: its ready items and when the oldest became ready. */
  disabledWaiting(): { persona_id: string; n: number; oldest: number }[] {
    return this.sql
      .exec<{ persona_id: string; n: number; oldest: number }>(
        `SELECT i.persona_id AS persona_id, COUNT(*) AS n, MIN(COALESCE(i.ready_at, 0)) AS oldest FROM board_item i
         JOIN board_persona p ON p.persona_id = i.persona_id
         WHERE i.state = 'ready' AND p.enabled = 0 GROUP BY i.persona_id ORDER BY i.persona_id`,
      )
      .toArray();
  }

  prune(now: number): void {
    this.sql.exec("DELETE FROM board_lease_log WHERE at < ?", now - LOG_KEPT_MS);
  }

  private log(
    at: number,
    kind: "lease" | "tokens",
    runId: string,
    itemId: string,
    persona: string | null,
    tokens: number,
  ) {
    this.sql.exec(
      "INSERT INTO board_lease_log (at, kind, run_id, item_id, persona_id, tokens) VALUES (?, ?, ?, ?, ?, ?)",
      at,
      kind,
      runId,
      itemId,
      persona,
      tokens,
    );
  }
}
