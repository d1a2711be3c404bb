// A team's memory rows (mem_doc, mem_actor_importance, mem_use_event) in its team object's SQLite: schema and operations.
import { memoryRowsHash } from "../src/lib/memory-rows-hash";
import { BASE_IMPORTANCE, IMPORTANCE_CAP, USE_BOOST } from "../src/lib/memory-vocabulary";
import type { ImportanceRow, MemoryRowsDigest, UseEventRow } from "../src/ports/memory-migration";
import type { MemDoc, MemoryClass, Tier, UseRecord } from "../src/ports/memory-store";
import { JOURNAL_SCHEMA_STEP } from "./decision-journal-rows";

/** A memory as the team object holds it: no team id, the object is the team (the Worker adds it back). */
export type TeamDoc = Omit<MemDoc, "teamId">;

/**
 * Schema steps, applied in order once each; `mem_schema.version` counts the steps applied. Append a step to change the
 * schema, never edit one: objects already created have run it.
 */
const SCHEMA_STEPS: string[][] = [
  [
    `CREATE TABLE mem_doc (id TEXT PRIMARY KEY, namespace TEXT NOT NULL, class TEXT NOT NULL, text TEXT NOT NULL,
      tags TEXT NOT NULL, metadata TEXT NOT NULL, pinned INTEGER NOT NULL DEFAULT 0, tier TEXT NOT NULL DEFAULT 'hot',
      supersedes TEXT, tier_changed_at INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER,
      importance REAL NOT NULL DEFAULT 10, last_used_at INTEGER, refreshed_at INTEGER NOT NULL DEFAULT 0,
      reinforce_count INTEGER NOT NULL DEFAULT 0, content_hash TEXT)`,
    "CREATE INDEX mem_doc_ns ON mem_doc (namespace)",
    "CREATE INDEX mem_doc_tier ON mem_doc (tier, tier_changed_at)",
    "CREATE INDEX mem_doc_expires ON mem_doc (expires_at)",
    "CREATE INDEX mem_doc_hash ON mem_doc (content_hash)",
    "CREATE INDEX mem_doc_class ON mem_doc (class)",
    `CREATE TABLE mem_actor_importance (doc_id TEXT NOT NULL, actor_key TEXT NOT NULL, raw_score REAL NOT NULL,
      last_update_at INTEGER NOT NULL, last_used_at INTEGER, use_7d INTEGER NOT NULL DEFAULT 0,
      use_30d INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (doc_id, actor_key))`,
    `CREATE TABLE mem_use_event (id TEXT PRIMARY KEY, doc_id TEXT NOT NULL, actor_key TEXT NOT NULL, run_id TEXT,
      ts INTEGER NOT NULL, weight REAL NOT NULL)`,
    "CREATE INDEX mem_use_event_doc ON mem_use_event (doc_id)",
  ],
  // 2: the team's decision journal (decide's durable hand-off to the decision log, decision-journal-rows.ts)
  JOURNAL_SCHEMA_STEP,
];

/** Brings the object's memory tables to the newest schema step (each step in one transaction). */
export function migrateMemoryTables(storage: DurableObjectStorage): void {
  const sql = storage.sql;
  sql.exec("CREATE TABLE IF NOT EXISTS mem_schema (version INTEGER NOT NULL)");
  const [row] = sql.exec<{ version: number }>("SELECT version FROM mem_schema").toArray();
  const applied = row?.version ?? 0;
  for (let step = applied; step < SCHEMA_STEPS.length; step++) {
    storage.transactionSync(() => {
      for (const statement of SCHEMA_STEPS[step] ?? []) sql.exec(statement);
      sql.exec("DELETE FROM mem_schema");
      sql.exec("INSERT INTO mem_schema (version) VALUES (?)", step + 1);
    });
  }
}

type DocRow = {
  id: string;
  namespace: string;
  class: string;
  text: string;
  tags: string;
  metadata: string;
  pinned: number;
  tier: string;
  supersedes: string | null;
  tier_changed_at: number;
  created_at: number;
  expires_at: number | null;
  importance: number;
  last_used_at: number | null;
  refreshed_at: number;
  reinforce_count: number;
  content_hash: string | null;
};

export const toTeamDoc = (r: DocRow): TeamDoc => ({
  id: r.id,
  namespace: r.namespace,
  cls: r.class as MemoryClass,
  text: r.text,
  tags: JSON.parse(r.tags) as string[],
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  pinned: r.pinned === 1,
  tier: r.tier as Tier,
  supersedes: r.supersedes,
  importance: r.importance,
  createdAt: r.created_at,
  refreshedAt: r.refreshed_at,
  lastUsedAt: r.last_used_at,
  tierChangedAt: r.tier_changed_at,
  expiresAt: r.expires_at,
  reinforceCount: r.reinforce_count,
  contentHash: r.content_hash,
});

const DOC_COLUMNS =
  "id, namespace, class, text, tags, metadata, pinned, tier, supersedes, tier_changed_at, created_at, expires_at, importance, last_used_at, refreshed_at, reinforce_count, content_hash";
const D = DOC_COLUMNS.split(", ")
  .map((c) => `d.${c}`)
  .join(", ");
/** ids travel as one JSON parameter: any number fits one statement */
const IN_IDS = "(SELECT value FROM json_each(?))";

/**
 * The MemoryStore operations a team object answers, one call each (the Worker's one RPC per port call); a call that
 * writes more than one statement runs in one transaction, so a failure leaves nothing half-written.
 */
export class TeamMemoryRows {
  constructor(private readonly storage: DurableObjectStorage) {}

  private get sql() {
    return this.storage.sql;
  }

  private docs(query: string, ...params: unknown[]): TeamDoc[] {
    return this.sql
      .exec<DocRow>(query, ...params)
      .toArray()
      .map(toTeamDoc);
  }

  insertDocs(docs: TeamDoc[]): void {
    this.storage.transactionSync(() => {
      for (const d of docs) {
        this.insertDoc(d, "");
        this.sql.exec(
          `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at) VALUES (?, 'team', ?, ?)
           ON CONFLICT DO NOTHING`,
          d.id,
          d.importance,
          d.createdAt,
        );
      }
    });
  }

  /** one mem_doc row; `onConflict` "ON CONFLICT DO NOTHING" for an import that may repeat; true when inserted */
  private insertDoc(d: TeamDoc, onConflict: "" | "ON CONFLICT DO NOTHING"): boolean {
    return (
      this.sql
        .exec(
          `INSERT INTO mem_doc (${DOC_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${onConflict} RETURNING id`,
          d.id,
          d.namespace,
          d.cls,
          d.text,
          JSON.stringify(d.tags),
          JSON.stringify(d.metadata),
          d.pinned ? 1 : 0,
          d.tier,
          d.supersedes,
          d.tierChangedAt,
          d.createdAt,
          d.expiresAt,
          d.importance,
          d.lastUsedAt,
          d.refreshedAt,
          d.reinforceCount,
          d.contentHash,
        )
        .toArray().length > 0
    );
  }

  /** a page copied from D1 (POST /v1/admin/memory/migrate), insert-or-ignore, in one transaction; docs inserted */
  importRows(page: { docs: TeamDoc[]; importance: ImportanceRow[]; uses: UseEventRow[] }): number {
    return this.storage.transactionSync(() => {
      let inserted = 0;
      for (const d of page.docs) if (this.insertDoc(d, "ON CONFLICT DO NOTHING")) inserted++;
      for (const i of page.importance)
        this.sql.exec(
          `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at, last_used_at, use_7d, use_30d)
           VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          i.docId,
          i.actorKey,
          i.rawScore,
          i.lastUpdateAt,
          i.lastUsedAt,
          i.use7d,
          i.use30d,
        );
      for (const u of page.uses)
        this.sql.exec(
          `INSERT INTO mem_use_event (id, doc_id, actor_key, run_id, ts, weight) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          u.id,
          u.docId,
          u.actorKey,
          u.runId,
          u.ts,
          u.weight,
        );
      return inserted;
    });
  }

  /** the count and content hash of every memory in the object (the copy's verification) */
  async digest(): Promise<MemoryRowsDigest> {
    const rows = this.sql
      .exec<{ id: string; content_hash: string | null; tier: string; importance: number }>(
        "SELECT id, content_hash, tier, importance FROM mem_doc",
      )
      .toArray()
      .map((r) => ({ id: r.id, contentHash: r.content_hash, tier: r.tier, importance: r.importance }));
    return { count: rows.length, hash: await memoryRowsHash(rows) };
  }

  /** deletes memories with their importance rows and use events; the memories deleted */
  deleteDocs(ids: string[]): number {
    if (!ids.length) return 0;
    return this.storage.transactionSync(() => this.deleteRows(ids));
  }

  /** deleteDocs' statements, for a caller already inside a transaction (the sweep) */
  deleteRows(ids: string[]): number {
    if (!ids.length) return 0;
    const list = JSON.stringify(ids);
    this.sql.exec(`DELETE FROM mem_actor_importance WHERE doc_id IN ${IN_IDS}`, list);
    this.sql.exec(`DELETE FROM mem_use_event WHERE doc_id IN ${IN_IDS}`, list);
    return this.sql.exec(`DELETE FROM mem_doc WHERE id IN ${IN_IDS} RETURNING id`, list).toArray().length;
  }

  getDocs(ids: string[]): TeamDoc[] {
    return this.docs(`SELECT ${DOC_COLUMNS} FROM mem_doc WHERE id IN ${IN_IDS}`, JSON.stringify(ids));
  }

  /** hot, unexpired docs by id with the actor's importance (its own row, else the team row, else the doc's) */
  getHotDocsForActor(ids: string[], actorKey: string, now: number): (TeamDoc & { actorImportance: number })[] {
    const rows = this.sql
      .exec<DocRow & { actor_score: number | null; team_score: number | null }>(
        `SELECT ${D}, a.raw_score AS actor_score, t.raw_score AS team_score
         FROM json_each(?1) AS j CROSS JOIN mem_doc AS d
         LEFT JOIN mem_actor_importance AS a ON a.doc_id = d.id AND a.actor_key = ?2
         LEFT JOIN mem_actor_importance AS t ON t.doc_id = d.id AND t.actor_key = 'team'
         WHERE d.id = j.value AND d.tier = 'hot' AND (d.expires_at IS NULL OR d.expires_at > ?3)`,
        JSON.stringify(ids),
        actorKey,
        now,
      )
      .toArray();
    return rows.map((r) => ({ ...toTeamDoc(r), actorImportance: r.actor_score ?? r.team_score ?? r.importance }));
  }

  /** the oldest non-archived doc per content hash, as [hash, doc] pairs */
  findByContentHashes(hashes: string[]): [string, TeamDoc][] {
    const out = new Map<string, TeamDoc>();
    const rows = this.docs(
      `SELECT ${DOC_COLUMNS} FROM mem_doc WHERE content_hash IN ${IN_IDS} AND tier != 'archived'
       ORDER BY created_at, id`,
      JSON.stringify(hashes),
    );
    for (const d of rows) if (d.contentHash && !out.has(d.contentHash)) out.set(d.contentHash, d);
    return [...out.entries()];
  }

  /** a near-duplicate write: +8 importance (team row), recency restarts, count +1 */
  reinforce(id: string, now: number): void {
    this.storage.transactionSync(() => {
      this.sql.exec(
        `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at) VALUES (?1, 'team', ?2, ?3)
         ON CONFLICT (doc_id, actor_key) DO UPDATE SET raw_score = min(?4, raw_score + ?5), last_update_at = ?3`,
        id,
        Math.min(IMPORTANCE_CAP, BASE_IMPORTANCE + USE_BOOST),
        now,
        IMPORTANCE_CAP,
        USE_BOOST,
      );
      this.sql.exec(
        `UPDATE mem_doc SET refreshed_at = ?2, reinforce_count = reinforce_count + 1,
          importance = max(importance, (SELECT max(raw_score) FROM mem_actor_importance WHERE doc_id = ?1))
         WHERE id = ?1`,
        id,
        now,
      );
    });
  }

  /** records uses (a repeated event id is ignored); the doc ids whose importance was boosted */
  recordUses(uses: UseRecord[], now: number): string[] {
    return this.storage.transactionSync(() => {
      const boosted = new Set<string>();
      for (const u of uses) {
        const fresh = this.sql
          .exec(
            `INSERT INTO mem_use_event (id, doc_id, actor_key, run_id, ts, weight) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT DO NOTHING RETURNING id`,
            u.eventId,
            u.docId,
            u.actorKey,
            u.runId,
            now,
            USE_BOOST,
          )
          .toArray();
        if (!fresh.length) continue;
        this.boost(u, now);
        boosted.add(u.docId);
      }
      return [...boosted];
    });
  }

  /** one use's boost: its (doc, actor) importance row (a new one starts from the team row) +8, capped; the doc's max */
  private boost(u: UseRecord, now: number) {
    this.sql.exec(
      `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at, last_used_at, use_7d, use_30d)
       VALUES (?1, ?2, min(?3, coalesce((SELECT raw_score FROM mem_actor_importance WHERE doc_id = ?1 AND actor_key = 'team'), ?4) + ?5), ?6, ?6, 1, 1)
       ON CONFLICT (doc_id, actor_key) DO UPDATE SET raw_score = min(?3, raw_score + ?5), last_update_at = ?6,
         last_used_at = ?6, use_7d = use_7d + 1, use_30d = use_30d + 1`,
      u.docId,
      u.actorKey,
      IMPORTANCE_CAP,
      BASE_IMPORTANCE,
      USE_BOOST,
      now,
    );
    this.sql.exec(
      `UPDATE mem_doc SET last_used_at = ?2,
        importance = max(importance, (SELECT max(raw_score) FROM mem_actor_importance WHERE doc_id = ?1))
       WHERE id = ?1`,
      u.docId,
      now,
    );
  }

  rigidDocs(limit: number): TeamDoc[] {
    return this.docs(
      `SELECT ${DOC_COLUMNS} FROM mem_doc WHERE class = 'rigid' AND tier != 'archived' ORDER BY created_at, id LIMIT ?`,
      limit,
    );
  }

  archiveRigid(namespace: string, kind: string, now: number): string[] {
    return this.sql
      .exec<{ id: string }>(
        `UPDATE mem_doc SET tier = 'archived', tier_changed_at = ? WHERE namespace = ? AND class = 'rigid'
         AND tier != 'archived' AND json_extract(metadata, '$.rigid_kind') = ? RETURNING id`,
        now,
        namespace,
        kind,
      )
      .toArray()
      .map((r) => r.id);
  }

  setTier(ids: string[], tier: Tier, now: number): void {
    this.sql.exec(
      `UPDATE mem_doc SET tier = ?, tier_changed_at = ? WHERE id IN ${IN_IDS}`,
      tier,
      now,
      JSON.stringify(ids),
    );
  }

  /** hot docs whose team importance row changed at or after `since`, in id order after `afterId` */
  importanceChangedSince(since: number, afterId: string, limit: number): string[] {
    return this.sql
      .exec<{ doc_id: string }>(
        `SELECT a.doc_id FROM mem_actor_importance AS a JOIN mem_doc AS d ON d.id = a.doc_id
         WHERE a.actor_key = 'team' AND a.last_update_at >= ? AND d.tier = 'hot' AND a.doc_id > ?
         ORDER BY a.doc_id LIMIT ?`,
        since,
        afterId,
        limit,
      )
      .toArray()
      .map((r) => r.doc_id);
  }

  hotDocsPage(afterId: string, limit: number): TeamDoc[] {
    return this.docs(
      `SELECT ${DOC_COLUMNS} FROM mem_doc WHERE tier = 'hot' AND id > ? ORDER BY id LIMIT ?`,
      afterId,
      limit,
    );
  }
}
