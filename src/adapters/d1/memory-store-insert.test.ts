// The memory write path's insert (two JSON-parameter statements per group) stores exactly what drizzle's insert did.
import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { freshTeam } from "../../../test/memory-harness";
import { memActorImportance, memDocs } from "../../features/memory/store/tables";
import type { MemDoc } from "../../ports/memory-store";
import { createD1MemoryStore } from "./memory-store";

const doc = (teamId: string, i: number, over: Partial<MemDoc> = {}): MemDoc => ({
  id: `mem_ins_${teamId}_${i}`,
  teamId,
  namespace: `team/${teamId}/project/p${i % 3}`,
  cls: (["episodic", "semantic", "kb", "rigid"] as const)[i % 4] as MemDoc["cls"],
  text: `memory ${i}: quotes " and ' and \\ backslash, unicode ü → 漢字, a $[0] and ?1 that are not SQL`,
  tags: i % 2 ? [] : ["a", `t${i}`, 'with "quote"'],
  metadata: i % 2 ? {} : { nested: { n: i, ok: true, none: null }, list: [1, "two"] },
  pinned: i % 3 === 0,
  tier: "hot",
  supersedes: i % 5 === 0 ? null : `mem_other_${i}`,
  importance: 10 + 8 * (i % 4),
  createdAt: 1_700_000_000_000 + i,
  refreshedAt: 1_700_000_000_500 + i,
  lastUsedAt: i % 2 ? null : 1_700_000_000_900,
  tierChangedAt: 1_700_000_000_000 + i,
  expiresAt: i % 4 ? null : 1_800_000_000_000,
  reinforceCount: i % 4,
  contentHash: i % 7 ? `hash_${i}` : null,
  ...over,
});
/** every column with its SQLite storage class beside it (so 10 stored as INTEGER differs from 10.0 as REAL) */
async function rowsOf(table: "mem_doc" | "mem_actor_importance", column: string, ids: string[]) {
  const columns = (await env.DB.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>()).results.map(
    (c) => c.name,
  );
  const select = columns.map((c) => `${c}, typeof(${c}) AS type_of_${c}`).join(", ");
  return (
    await env.DB.prepare(
      `SELECT ${select} FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?)) ORDER BY ${column}`,
    )
      .bind(JSON.stringify(ids))
      .all<Record<string, unknown>>()
  ).results;
}

describe("D1 memory store: insertDocs", () => {
  it("stores every field of 40 docs in one call as drizzle's typed insert does, and reads them back unchanged", async () => {
    const store = createD1MemoryStore(drizzle(env.DB));
    const a = freshTeam();
    const b = freshTeam();
    const docs = Array.from({ length: 40 }, (_, i) => doc(a, i));
    await store.insertDocs(docs);
    // the same docs (another team) through drizzle's builder, as the write path did before
    const twins = Array.from({ length: 40 }, (_, i) => doc(b, i));
    const db = drizzle(env.DB);
    for (const d of twins) {
      await db.insert(memDocs).values({ ...d, class: d.cls, qualityScore: 0 });
      await db
        .insert(memActorImportance)
        .values({ docId: d.id, actorKey: "team", rawScore: d.importance, lastUpdateAt: d.createdAt });
    }
    const strip = (rows: Record<string, unknown>[], team: string) =>
      JSON.parse(JSON.stringify(rows).replaceAll(team, "TEAM"));
    const mine = await rowsOf(
      "mem_doc",
      "id",
      docs.map((d) => d.id),
    );
    const theirs = await rowsOf(
      "mem_doc",
      "id",
      twins.map((d) => d.id),
    );
    expect(mine).toHaveLength(40);
    expect(strip(mine, a)).toEqual(strip(theirs, b));
    const imp = await rowsOf(
      "mem_actor_importance",
      "doc_id",
      docs.map((d) => d.id),
    );
    const impTwins = await rowsOf(
      "mem_actor_importance",
      "doc_id",
      twins.map((d) => d.id),
    );
    expect(strip(imp, a)).toEqual(strip(impTwins, b));
    expect(
      await store.getDocs(
        a,
        docs.map((d) => d.id),
      ),
    ).toEqual(expect.arrayContaining(docs.map((d) => expect.objectContaining(d))));
  });

  it("keeps an existing importance row, and inserts nothing when a doc id already exists (the batch fails whole)", async () => {
    const store = createD1MemoryStore(drizzle(env.DB));
    const team = freshTeam();
    const first = doc(team, 1);
    await env.DB.prepare(
      "INSERT INTO mem_actor_importance (doc_id, actor_key, raw_score, last_update_at) VALUES (?, 'team', 99, 1)",
    )
      .bind(first.id)
      .run();
    await store.insertDocs([first]);
    expect((await rowsOf("mem_actor_importance", "doc_id", [first.id]))[0]).toMatchObject({ raw_score: 99 });
    const fresh = doc(team, 2);
    await expect(store.insertDocs([fresh, first])).rejects.toThrow();
    expect(await rowsOf("mem_doc", "id", [fresh.id])).toEqual([]);
    expect(await rowsOf("mem_actor_importance", "doc_id", [fresh.id])).toEqual([]);
    await store.insertDocs([]);
  });
});
