// The copy job over D1 and team objects: interrupted and resumed, verified, switched, repeated, isolated. In Node over
// the D1 stand-in and the team objects hosted by the Durable Object stand-in; D1's rows read through the memory
// feature's drizzle tables.
import { eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { runInDurableObject } from "../../../test/fakes/durable-objects";
import { nodeMemoryTools, T0 } from "../../../test/node-d1/memory";
import { teamObjectTables } from "../../../test/team-object-tables";
import { createD1MemoryStore } from "../../adapters/d1/memory-store";
import { mintToken } from "../../auth/mint";
import { parseConfig } from "../../config";
import type { MemDoc } from "../../ports/memory-store";
import { memActorImportance, memDocs, memoryMigrations, memoryTeams, memUseEvents } from "../memory/store/tables";

const { env, freshTeam, memoryHarness } = await nodeMemoryTools();
const db = drizzle(env.DB);
/** the team objects' memory tables, read with the same drizzle tables */
const objectTables = teamObjectTables((teamId, fn) =>
  runInDurableObject(env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(teamId)), (_o, state) => fn(state.storage)),
);
const d1Memory = () => createD1MemoryStore(db);

const adminToken = (teamId: string) =>
  mintToken({
    secret: env.WARDEN_JWT_SECRET,
    teamId,
    scopes: ["policy:admin", "memory:read", "memory:write"],
    sub: `admin-${teamId}`,
    nowSeconds: Math.floor(Date.now() / 1000),
  });

const doc = (teamId: string, id: string, i: number): MemDoc => ({
  id,
  teamId,
  namespace: `team/${teamId}/org/notes`,
  cls: "kb",
  text: `note ${i}: the queue ${id} drains at 0${i % 10}:00`,
  tags: [`t${i}`],
  metadata: { n: i },
  pinned: false,
  tier: i % 3 === 0 ? "warm" : "hot",
  supersedes: null,
  importance: 10 + i,
  createdAt: T0 - 1000 * i,
  refreshedAt: T0 - 1000 * i,
  lastUsedAt: null,
  tierChangedAt: T0 - 1000 * i,
  expiresAt: null,
  reinforceCount: 0,
  contentHash: `hash-${id}`,
});

/** seven docs in D1, two of them used (importance rows of an agent, use events) */
async function seedD1(teamId: string) {
  const ids = Array.from({ length: 7 }, (_, i) => `mem_${teamId}_${i}`);
  const store = d1Memory();
  await store.insertDocs(ids.map((id, i) => doc(teamId, id, i)));
  await store.recordUses(
    teamId,
    [
      { docId: ids[1] as string, actorKey: "agent:a", runId: "r1", eventId: `${teamId}-u1` },
      { docId: ids[5] as string, actorKey: "agent:b", runId: null, eventId: `${teamId}-u2` },
    ],
    T0,
  );
  return ids;
}

/** the team's D1 rows of the memory tables, as the team object's own SQL reads them (tags as stored) */
async function d1Side(teamId: string) {
  const teamDocIds = db.select({ id: memDocs.id }).from(memDocs).where(eq(memDocs.teamId, teamId));
  const docs = await db
    .select({
      id: memDocs.id,
      text: memDocs.text,
      tier: memDocs.tier,
      importance: memDocs.importance,
      tags: sql<string>`${memDocs.tags}`,
      content_hash: memDocs.contentHash,
    })
    .from(memDocs)
    .where(eq(memDocs.teamId, teamId))
    .orderBy(memDocs.id);
  const i = memActorImportance;
  const importance = await db
    .select({ doc_id: i.docId, actor_key: i.actorKey, raw_score: i.rawScore })
    .from(i)
    .where(inArray(i.docId, teamDocIds))
    .orderBy(i.docId, i.actorKey);
  const u = memUseEvents;
  const uses = await db
    .select({ id: u.id, doc_id: u.docId, actor_key: u.actorKey, run_id: u.runId, ts: u.ts })
    .from(u)
    .where(inArray(u.docId, teamDocIds))
    .orderBy(u.id);
  return { docs, importance, uses };
}

/** both sides' rows, in comparable form */
async function bothSides(teamId: string) {
  return {
    d1: await d1Side(teamId),
    object: {
      docs: (await objectTables.docs(teamId)).map((d) => ({
        id: d.id,
        text: d.text,
        tier: d.tier,
        importance: d.importance,
        tags: d.tags,
        content_hash: d.contentHash,
      })),
      importance: (await objectTables.importance(teamId)).map((i) => ({
        doc_id: i.docId,
        actor_key: i.actorKey,
        raw_score: i.rawScore,
      })),
      uses: (await objectTables.uses(teamId)).map((u) => ({
        id: u.id,
        doc_id: u.docId,
        actor_key: u.actorKey,
        run_id: u.runId,
        ts: u.ts,
      })),
    },
  };
}

/** the team's memory_migration row (cursor, switched_at, verified_hash), null when it has none */
const migrationRow = async (teamId: string) => {
  const m = memoryMigrations;
  const row = await db
    .select({ cursor: m.cursor, switched_at: m.switchedAt, verified_hash: m.verifiedHash })
    .from(m)
    .where(eq(m.teamId, teamId))
    .get();
  return row ?? null;
};

describe("POST /v1/admin/memory/migrate", () => {
  it("copies by pages, resumes after an interruption, verifies, switches, and a second run changes nothing", async () => {
    const h = memoryHarness();
    const team = freshTeam("mig");
    await seedD1(team);
    const token = await adminToken(team);
    const migrate = (batch: number) => h.call("POST", "/v1/admin/memory/migrate", { token, body: { batch } });

    const first = await migrate(3);
    const second = await migrate(3);
    expect([first.status, first.json], JSON.stringify(first.json)).toEqual([200, { copied: 3, total: 7, done: false }]);
    expect(second.json).toEqual({ copied: 6, total: 7, done: false });
    // interrupted: the progress row lost its cursor (a page copied again must change nothing)
    const halfway = await bothSides(team);
    await db.update(memoryMigrations).set({ cursor: "" }).where(eq(memoryMigrations.teamId, team));
    expect((await migrate(3)).json).toEqual({ copied: 6, total: 7, done: false });
    expect((await bothSides(team)).object).toEqual(halfway.object);

    let last = await migrate(3);
    for (let i = 0; i < 5 && !last.json.done; i++) last = await migrate(3);
    expect(last.status).toBe(200);
    expect(last.json).toMatchObject({ copied: 7, total: 7, done: true, switched_at: h.now() });
    expect(last.json.verified_hash).toMatch(/^[0-9a-f]{64}$/);

    const sides = await bothSides(team);
    expect(sides.object.docs).toHaveLength(7);
    expect(sides.object).toEqual(sides.d1);
    expect(sides.object.uses).toHaveLength(2);
    expect(await migrationRow(team)).toMatchObject({ switched_at: h.now(), verified_hash: last.json.verified_hash });
    const swept = await db
      .select({ team_id: memoryTeams.teamId })
      .from(memoryTeams)
      .where(eq(memoryTeams.teamId, team))
      .get();
    expect(swept).toEqual({ team_id: team });

    h.advance(60_000);
    const again = await migrate(500);
    expect(again.json).toEqual(last.json);
    expect((await bothSides(team)).object).toEqual(sides.object);
  });

  it("refuses to switch when a row was written behind the cursor, then copies it on the next run", async () => {
    const h = memoryHarness();
    const team = freshTeam("mig");
    await seedD1(team);
    const token = await adminToken(team);
    const migrate = () => h.call("POST", "/v1/admin/memory/migrate", { token, body: { batch: 500 } });
    expect((await migrate()).json).toEqual({ copied: 7, total: 7, done: false });
    await d1Memory().insertDocs([doc(team, `mem_${team}_0a`, 8)]);
    const refused = await migrate();
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("conflict");
    expect(refused.json.error.message).toContain("D1 holds 8 memories, the team object 7");
    expect(await migrationRow(team)).toMatchObject({ cursor: "", switched_at: null });
    expect((await migrate()).json).toEqual({ copied: 8, total: 8, done: false });
    const done = await migrate();
    expect(done.json).toMatchObject({ copied: 8, total: 8, done: true });
    const sides = await bothSides(team);
    expect(sides.object).toEqual(sides.d1);
  });

  it("copies a full page of 500 (one statement per table on either side) and then the rest", async () => {
    const h = memoryHarness();
    const team = freshTeam("big");
    const ids = Array.from({ length: 501 }, (_, i) => `mem_${team}_${String(i).padStart(4, "0")}`);
    await d1Memory().insertDocs(ids.map((id, i) => doc(team, id, i)));
    const token = await adminToken(team);
    const migrate = () => h.call("POST", "/v1/admin/memory/migrate", { token, body: { batch: 500 } });
    expect((await migrate()).json).toEqual({ copied: 500, total: 501, done: false });
    expect((await migrate()).json).toEqual({ copied: 501, total: 501, done: false });
    expect((await migrate()).json).toMatchObject({ copied: 501, total: 501, done: true });
    const sides = await bothSides(team);
    expect(sides.object.importance).toHaveLength(501);
    expect(sides.object).toEqual(sides.d1);
  });

  it("copies only the token's own team, and refuses bad bodies and missing scopes", async () => {
    const h = memoryHarness();
    const [a, b] = [freshTeam("a"), freshTeam("b")];
    await seedD1(a);
    const tokenB = await adminToken(b);
    const byB = await h.call("POST", "/v1/admin/memory/migrate", { token: tokenB, body: { batch: 500 } });
    // B has nothing in D1: both sides are empty, so B verifies and switches at once; A's rows are not B's
    expect(byB.json).toMatchObject({ copied: 0, total: 0, done: true });
    expect(await objectTables.docs(b)).toEqual([]);
    const naming = await h.call("POST", "/v1/admin/memory/migrate", {
      token: tokenB,
      body: { batch: 10, team_id: a },
    });
    expect(naming.status).toBe(400);
    expect(naming.json.error.code).toBe("validation_failed");
    expect(await objectTables.docs(a)).toEqual([]);
    expect(await migrationRow(a)).toBeNull();

    for (const batch of [0, 501, 2.5, "10"]) {
      const bad = await h.call("POST", "/v1/admin/memory/migrate", { token: tokenB, body: { batch } });
      expect(bad.status, `batch ${batch}`).toBe(400);
      expect(bad.json.error).toMatchObject({ code: "validation_failed", request_id: expect.any(String) });
    }
    const reader = await mintToken({
      secret: env.WARDEN_JWT_SECRET,
      teamId: a,
      scopes: ["memory:read", "memory:write"],
      sub: "reader",
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    const forbidden = await h.call("POST", "/v1/admin/memory/migrate", { token: reader, body: { batch: 10 } });
    expect(forbidden.status).toBe(403);
    expect(await objectTables.docs(a)).toEqual([]);
  });
});

describe('MEMORY_ROWS = "d1-until-migrated"', () => {
  it("reads and writes the team's memory in D1 until its copy is switched, then in its team object", async () => {
    const h = memoryHarness({ config: { ...parseConfig(env), MEMORY_ROWS: "d1-until-migrated" } });
    const team = freshTeam("d1");
    const token = await adminToken(team);
    const ns = `team/${team}/org/notes`;
    const write = (text: string) => h.call("POST", "/v1/memory", { token, body: { namespace: ns, class: "kb", text } });
    const query = (text: string) =>
      h.call("POST", "/v1/memory/query", { token, body: { namespaces: [ns], text, top_k: 5 } });
    const d1Ids = async () =>
      (await db.select({ id: memDocs.id }).from(memDocs).where(eq(memDocs.teamId, team))).map((r) => r.id);
    const objectIds = async () => (await objectTables.docs(team)).map((r) => r.id);

    const before = await write("the billing queue drains at 02:00 UTC");
    expect(before.status).toBe(201);
    expect(await d1Ids()).toEqual([before.json.id]);
    expect(await objectIds()).toEqual([]);
    const readBefore = await query("when does the billing queue drain");
    expect(readBefore.json.results.map((r: { id: string }) => r.id)).toEqual([before.json.id]);

    let step = await h.call("POST", "/v1/admin/memory/migrate", { token, body: { batch: 100 } });
    while (step.status === 200 && !step.json.done)
      step = await h.call("POST", "/v1/admin/memory/migrate", { token, body: { batch: 100 } });
    expect(step.json).toMatchObject({ copied: 1, total: 1, done: true });

    const after = await write("the ledger compacts every Sunday night");
    expect(after.status).toBe(201);
    expect(await d1Ids()).toEqual([before.json.id]);
    expect((await objectIds()).sort()).toEqual([before.json.id, after.json.id].sort());
    // the switched team reads its object: a doc now only in D1 is not seen, the copied one is
    await db.update(memDocs).set({ text: "changed in D1 only" }).where(eq(memDocs.id, before.json.id));
    const readAfter = await query("when does the billing queue drain");
    const hit = readAfter.json.results.find((r: { id: string }) => r.id === before.json.id);
    expect(hit?.text).toBe("the billing queue drains at 02:00 UTC");
  });
});
