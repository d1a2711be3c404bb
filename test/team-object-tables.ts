// Typed reads of a team object's whole memory tables (drizzle over the object's SQLite, with the memory feature's
// drizzle tables: the object stores mem_actor_importance and mem_use_event as D1 does, mem_doc without team_id), for
// tests that compare every row, which no MemoryStore operation reads.
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { memActorImportance, memDocs, memUseEvents } from "../src/features/memory/store/tables";

/** runs `fn` inside the team object with its storage (workerd's runInDurableObject, or the Node stand-in's) */
export type RunInTeamObject = <R>(teamId: string, fn: (storage: DurableObjectStorage) => R) => Promise<R>;

type Cursor = { toArray(): Record<string, unknown>[]; raw?: () => unknown };

/** the storage's `sql` with `raw()` on every cursor (drizzle reads rows as arrays; the Node stand-in has no raw()) */
function withRawRows(storage: DurableObjectStorage) {
  return {
    sql: {
      exec(query: string, ...params: unknown[]) {
        const cursor = storage.sql.exec(query, ...(params as SqlStorageValue[])) as unknown as Cursor;
        if (typeof cursor.raw === "function") return cursor;
        const rows = cursor.toArray();
        return { toArray: () => rows, raw: () => ({ toArray: () => rows.map((r) => Object.values(r)) }) };
      },
    },
  } as unknown as DurableObjectStorage;
}

const d = memDocs;
/** every column the object's mem_doc has (D1's table has team_id and quality_score besides) */
const DOC_FIELDS = {
  id: d.id,
  namespace: d.namespace,
  class: d.class,
  text: d.text,
  /** as stored (a JSON string), like the object's own SQL reads it */
  tags: sql<string>`${d.tags}`,
  metadata: sql<string>`${d.metadata}`,
  pinned: d.pinned,
  tier: d.tier,
  supersedes: d.supersedes,
  tierChangedAt: d.tierChangedAt,
  createdAt: d.createdAt,
  expiresAt: d.expiresAt,
  importance: d.importance,
  lastUsedAt: d.lastUsedAt,
  refreshedAt: d.refreshedAt,
  reinforceCount: d.reinforceCount,
  contentHash: d.contentHash,
};

export function teamObjectTables(runIn: RunInTeamObject) {
  const read = <R>(teamId: string, fn: (db: ReturnType<typeof drizzle>) => R) =>
    runIn(teamId, (storage) => fn(drizzle(withRawRows(storage))));

  /** every memory of the team's object, in id order */
  const docs = (teamId: string) => read(teamId, (db) => db.select(DOC_FIELDS).from(d).orderBy(d.id).all());

  /** every importance row, by doc then actor */
  const importance = (teamId: string) =>
    read(teamId, (db) => {
      const i = memActorImportance;
      return db.select().from(i).orderBy(i.docId, i.actorKey).all();
    });

  /** every use event, by id */
  const uses = (teamId: string) => read(teamId, (db) => db.select().from(memUseEvents).orderBy(memUseEvents.id).all());

  return { docs, importance, uses };
}
