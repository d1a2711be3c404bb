// MemoryStore over D1 with drizzle, the older memory home (docs, actor importance, use events, tier moves) and the
// session rows every home keeps in D1 (`memory-session-rows.ts`); the one writer of its tables.
import { and, asc, eq, getTableColumns, gt, gte, isNull, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { alias } from "drizzle-orm/sqlite-core";
import { memActorImportance, memDocs, memUseEvents } from "../../features/memory/store/tables";
import { BASE_IMPORTANCE, IMPORTANCE_CAP, USE_BOOST } from "../../lib/memory-vocabulary";
import type { MemDoc, MemDocForActor, MemoryClass, MemoryStore, Tier } from "../../ports/memory-store";
import { sessionRows } from "./memory-session-rows";

type DocRow = typeof memDocs.$inferSelect;

export const toDoc = (r: DocRow): MemDoc => ({
  id: r.id,
  teamId: r.teamId,
  namespace: r.namespace,
  cls: r.class as MemoryClass,
  text: r.text,
  tags: r.tags,
  metadata: r.metadata,
  pinned: r.pinned,
  tier: r.tier as Tier,
  supersedes: r.supersedes,
  importance: r.importance,
  createdAt: r.createdAt,
  refreshedAt: r.refreshedAt,
  lastUsedAt: r.lastUsedAt,
  tierChangedAt: r.tierChangedAt,
  expiresAt: r.expiresAt,
  reinforceCount: r.reinforceCount,
  contentHash: r.contentHash,
});

const toRow = (d: MemDoc): typeof memDocs.$inferInsert => ({
  id: d.id,
  teamId: d.teamId,
  namespace: d.namespace,
  class: d.cls,
  text: d.text,
  tags: d.tags,
  metadata: d.metadata,
  pinned: d.pinned,
  tier: d.tier,
  qualityScore: 0,
  supersedes: d.supersedes,
  tierChangedAt: d.tierChangedAt,
  createdAt: d.createdAt,
  expiresAt: d.expiresAt,
  importance: d.importance,
  lastUsedAt: d.lastUsedAt,
  refreshedAt: d.refreshedAt,
  reinforceCount: d.reinforceCount,
  contentHash: d.contentHash,
});

/**
 * The write path's insert (every memory write's group commit ends here), built once: all new docs and their team
 * importance rows travel as one JSON parameter each (json_each), so a group of any size is two statements. drizzle
 * was ~9 % of the isolate's CPU at 8 writes in flight, about half of it building these inserts (and 100 bound
 * parameters allowed only 4 docs per statement); the row is still drizzle's typed insert row, turned into driver
 * values by the table's own columns.
 */
type AnyColumn = { name: string; mapToDriverValue(v: unknown): unknown };
const DOC_COLUMNS = Object.entries(getTableColumns(memDocs)) as [keyof typeof memDocs.$inferInsert, AnyColumn][];
const INSERT_DOCS_SQL = `INSERT INTO mem_doc (${DOC_COLUMNS.map(([, c]) => c.name).join(", ")}) SELECT ${DOC_COLUMNS.map(
  (_, i) => `json_extract(j.value, '$[${i}]')`,
).join(", ")} FROM json_each(?1) AS j`;
const INSERT_TEAM_IMPORTANCE_SQL = `INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at)
  SELECT json_extract(j.value, '$[0]'), 'team', json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]')
  FROM json_each(?1) AS j WHERE true ON CONFLICT DO NOTHING`;
const docValues = (d: MemDoc) => {
  const row = toRow(d);
  return DOC_COLUMNS.map(([key, column]) => (row[key] === undefined ? null : column.mapToDriverValue(row[key])));
};
const USE_ROWS_PER_INSERT = 16;
/** ids travel as one JSON parameter (json_each), so any number fits one statement */
const idList = (ids: string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** Runs drizzle statements as one D1 batch (nothing for none). */
async function batchAll(db: DrizzleD1Database, items: BatchItem<"sqlite">[]) {
  if (items.length === 0) return;
  await db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** Inserts of memories with their team importance rows: two prepared statements, all rows as one JSON parameter. */
function docInserts(db: DrizzleD1Database & { $client: D1Database }): Pick<MemoryStore, "insertDocs"> {
  let statements: { docs: D1PreparedStatement; importance: D1PreparedStatement } | undefined;
  const prepared = () => {
    statements ??= {
      docs: db.$client.prepare(INSERT_DOCS_SQL),
      importance: db.$client.prepare(INSERT_TEAM_IMPORTANCE_SQL),
    };
    return statements;
  };

  return {
    async insertDocs(docs) {
      if (!docs.length) return;
      const statements = prepared();
      await db.$client.batch([
        statements.docs.bind(JSON.stringify(docs.map(docValues))),
        statements.importance.bind(JSON.stringify(docs.map((d) => [d.id, d.importance, d.createdAt]))),
      ]);
    },
  };
}

/** Deletes, reinforcements and validated uses of a team's memories. */
function docUpdates(db: DrizzleD1Database): Pick<MemoryStore, "deleteDocs" | "reinforce" | "recordUses"> {
  const batch = (items: BatchItem<"sqlite">[]) => batchAll(db, items);
  return {
    async deleteDocs(teamId, ids) {
      if (!ids.length) return;
      await batch([...deleteDocsStatements(db, ids, teamId)]);
    },

    async reinforce(teamId, id, now) {
      await batch([
        db
          .insert(memActorImportance)
          .values({
            docId: id,
            actorKey: "team",
            rawScore: Math.min(IMPORTANCE_CAP, BASE_IMPORTANCE + USE_BOOST),
            lastUpdateAt: now,
          })
          .onConflictDoUpdate({
            target: [memActorImportance.docId, memActorImportance.actorKey],
            set: { rawScore: sql`min(${IMPORTANCE_CAP}, raw_score + ${USE_BOOST})`, lastUpdateAt: now },
          }),
        db
          .update(memDocs)
          .set({
            refreshedAt: now,
            reinforceCount: sql`${memDocs.reinforceCount} + 1`,
            importance: sql`max(${memDocs.importance}, (SELECT max(raw_score) FROM mem_actor_importance WHERE doc_id = ${id}))`,
          })
          .where(and(eq(memDocs.teamId, teamId), eq(memDocs.id, id))),
      ]);
    },

    async recordUses(teamId, uses, now) {
      if (!uses.length) return [];
      // 1) the use events; a repeated event id (same doc, actor and run) is ignored
      const fresh = await insertUseEvents(db, uses, now);
      const boosted = uses.filter((u) => fresh.has(u.eventId));
      if (!boosted.length) return [];
      // 2) importance per (doc, actor), and the doc's importance and last use
      await batch(boosted.flatMap((u) => useBoostStatements(db, teamId, u, now)));
      return [...new Set(boosted.map((u) => u.docId))];
    },
  };
}

/** Archiving a namespace's rigid memories and moving memories between tiers. */
function tierMoves(db: DrizzleD1Database): Pick<MemoryStore, "archiveRigid" | "setTier"> {
  return {
    async archiveRigid(teamId, namespace, kind, now) {
      const rows = await db
        .update(memDocs)
        .set({ tier: "archived", tierChangedAt: now })
        .where(
          and(
            eq(memDocs.teamId, teamId),
            eq(memDocs.namespace, namespace),
            eq(memDocs.class, "rigid"),
            sql`${memDocs.tier} != 'archived'`,
            sql`json_extract(${memDocs.metadata}, '$.rigid_kind') = ${kind}`,
          ),
        )
        .returning({ id: memDocs.id });
      return rows.map((r) => r.id);
    },

    async setTier(teamId, ids, tier, now) {
      if (!ids.length) return;
      await db
        .update(memDocs)
        .set({ tier, tierChangedAt: now })
        .where(and(eq(memDocs.teamId, teamId), sql`${memDocs.id} IN ${idList(ids)}`));
    },
  };
}

/** Hot, unexpired docs by id with the importance the actor sees (its own row, else the team row, else the doc's). */
async function hotDocsForActor(
  db: DrizzleD1Database,
  teamId: string,
  ids: string[],
  actorKey: string,
  now: number,
): Promise<MemDocForActor[]> {
  if (!ids.length) return [];
  const actor = alias(memActorImportance, "a");
  const team = alias(memActorImportance, "t");
  // CROSS JOIN keeps json_each as the outer loop: one primary-key lookup per id, whatever the team's size
  // (json_each is a table-valued function, which the builder has no table for: a `sql` source)
  const rows = await db
    .select({ doc: memDocs, actorScore: actor.rawScore, teamScore: team.rawScore })
    .from(sql`json_each(${JSON.stringify(ids)}) AS j`)
    .crossJoin(memDocs)
    .leftJoin(actor, and(eq(actor.docId, memDocs.id), eq(actor.actorKey, actorKey)))
    .leftJoin(team, and(eq(team.docId, memDocs.id), eq(team.actorKey, "team")))
    .where(
      and(
        sql`${memDocs.id} = j.value`,
        eq(memDocs.teamId, teamId),
        eq(memDocs.tier, "hot"),
        or(isNull(memDocs.expiresAt), gt(memDocs.expiresAt, now)),
      ),
    );
  return rows.map((r) => ({
    ...toDoc(r.doc),
    actorImportance: r.actorScore ?? r.teamScore ?? r.doc.importance,
  }));
}

/** Lookups of a team's memories: by id, for an actor, by content hash. */
function docReads(
  db: DrizzleD1Database,
): Pick<MemoryStore, "getDocs" | "getHotDocsForActor" | "findByContentHash" | "findByContentHashes"> {
  return {
    async getDocs(teamId, ids) {
      if (!ids.length) return [];
      const rows = await db
        .select()
        .from(memDocs)
        .where(and(eq(memDocs.teamId, teamId), sql`${memDocs.id} IN ${idList(ids)}`));
      return rows.map(toDoc);
    },

    getHotDocsForActor: (teamId, ids, actorKey, now) => hotDocsForActor(db, teamId, ids, actorKey, now),

    async findByContentHash(teamId, hash) {
      const [row] = await db
        .select()
        .from(memDocs)
        .where(and(eq(memDocs.teamId, teamId), eq(memDocs.contentHash, hash), sql`${memDocs.tier} != 'archived'`))
        .orderBy(asc(memDocs.createdAt))
        .limit(1);
      return row ? toDoc(row) : null;
    },

    async findByContentHashes(teamId, hashes) {
      const out = new Map<string, MemDoc>();
      if (!hashes.length) return out;
      const rows = await db
        .select()
        .from(memDocs)
        .where(
          and(
            eq(memDocs.teamId, teamId),
            sql`${memDocs.contentHash} IN ${idList(hashes)}`,
            sql`${memDocs.tier} != 'archived'`,
          ),
        )
        .orderBy(asc(memDocs.createdAt), asc(memDocs.id));
      for (const r of rows) if (r.contentHash && !out.has(r.contentHash)) out.set(r.contentHash, toDoc(r));
      return out;
    },
  };
}

/** Pages of a team's memories: rigid ones, importance changes since a time, hot ones for reindexing. */
function docPages(db: DrizzleD1Database): Pick<MemoryStore, "rigidDocs" | "importanceChangedSince" | "hotDocsPage"> {
  return {
    async rigidDocs(teamId, limit) {
      const rows = await db
        .select()
        .from(memDocs)
        .where(and(eq(memDocs.teamId, teamId), eq(memDocs.class, "rigid"), sql`${memDocs.tier} != 'archived'`))
        .orderBy(asc(memDocs.createdAt), asc(memDocs.id))
        .limit(limit);
      return rows.map(toDoc);
    },

    async importanceChangedSince(teamId, since, afterId, limit) {
      const a = memActorImportance;
      const rows = await db
        .select({ docId: a.docId })
        .from(a)
        .innerJoin(memDocs, eq(memDocs.id, a.docId))
        .where(
          and(
            eq(a.actorKey, "team"),
            eq(memDocs.teamId, teamId),
            gte(a.lastUpdateAt, since),
            eq(memDocs.tier, "hot"),
            gt(a.docId, afterId),
          ),
        )
        .orderBy(asc(a.docId))
        .limit(limit);
      return rows.map((r) => r.docId);
    },

    async hotDocsPage(teamId, afterId, limit) {
      const rows = await db
        .select()
        .from(memDocs)
        .where(and(eq(memDocs.teamId, teamId), eq(memDocs.tier, "hot"), sql`${memDocs.id} > ${afterId}`))
        .orderBy(asc(memDocs.id))
        .limit(limit);
      return rows.map(toDoc);
    },
  };
}

export function createD1MemoryStore(db: DrizzleD1Database & { $client: D1Database }): MemoryStore {
  return {
    ...docInserts(db),
    ...docUpdates(db),
    ...tierMoves(db),
    ...docReads(db),
    ...docPages(db),
    ...sessionRows(db),
  };
}

type Use = Parameters<MemoryStore["recordUses"]>[1][number];

/** Inserts the use events, a repeated event id ignored; the ids actually inserted. */
async function insertUseEvents(db: DrizzleD1Database, uses: Use[], now: number): Promise<Set<string>> {
  const inserted: { id: string }[] = [];
  for (let i = 0; i < uses.length; i += USE_ROWS_PER_INSERT) {
    inserted.push(
      ...(await db
        .insert(memUseEvents)
        .values(
          uses.slice(i, i + USE_ROWS_PER_INSERT).map((u) => ({
            id: u.eventId,
            docId: u.docId,
            actorKey: u.actorKey,
            runId: u.runId,
            ts: now,
            weight: USE_BOOST,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: memUseEvents.id })),
    );
  }
  return new Set(inserted.map((r) => r.id));
}

/** One use's boost: its (doc, actor) importance row (a new one starts from the team row) +8, capped; the doc's max. */
function useBoostStatements(db: DrizzleD1Database, teamId: string, u: Use, now: number): BatchItem<"sqlite">[] {
  const a = memActorImportance;
  return [
    db
      .insert(a)
      .values({
        docId: u.docId,
        actorKey: u.actorKey,
        // a value computed from another row of the table: a `sql` subquery (the builder has no scalar subquery)
        rawScore: sql`min(${IMPORTANCE_CAP}, coalesce((SELECT raw_score FROM mem_actor_importance WHERE doc_id = ${u.docId} AND actor_key = 'team'), ${BASE_IMPORTANCE}) + ${USE_BOOST})`,
        lastUpdateAt: now,
        lastUsedAt: now,
        use7d: 1,
        use30d: 1,
      })
      .onConflictDoUpdate({
        target: [a.docId, a.actorKey],
        set: {
          rawScore: sql`min(${IMPORTANCE_CAP}, raw_score + ${USE_BOOST})`,
          lastUpdateAt: now,
          lastUsedAt: now,
          use7d: sql`use_7d + 1`,
          use30d: sql`use_30d + 1`,
        },
      }),
    db
      .update(memDocs)
      .set({
        lastUsedAt: now,
        importance: sql`max(${memDocs.importance}, (SELECT max(raw_score) FROM mem_actor_importance WHERE doc_id = ${u.docId}))`,
      })
      .where(and(eq(memDocs.id, u.docId), eq(memDocs.teamId, teamId))),
  ];
}

// mem_doc, mem_actor_importance and mem_use_event have one writer in D1, this module (the older memory home: the daily
// sweep runs in each team object now).

/**
 * Deletes memories with their importance rows and use events: three statements for one batch, the memories last
 * (its changes are the memories deleted). With `teamId`, only that team's memories among `ids`.
 */
function deleteDocsStatements(db: DrizzleD1Database, ids: string[], teamId?: string) {
  const ofTeam = (column: typeof memActorImportance.docId | typeof memUseEvents.docId) =>
    teamId === undefined ? sql`` : sql` AND ${column} IN (SELECT id FROM mem_doc WHERE team_id = ${teamId})`;
  return [
    db
      .delete(memActorImportance)
      .where(sql`${memActorImportance.docId} IN ${idList(ids)}${ofTeam(memActorImportance.docId)}`),
    db.delete(memUseEvents).where(sql`${memUseEvents.docId} IN ${idList(ids)}${ofTeam(memUseEvents.docId)}`),
    db
      .delete(memDocs)
      .where(and(teamId === undefined ? undefined : eq(memDocs.teamId, teamId), sql`${memDocs.id} IN ${idList(ids)}`)),
  ] as const;
}
