// The MemoryStore contract every memory home passes (D1, the team object), as one parameterised suite.
import { describe, expect, it } from "vitest";
import type { MemDoc, MemoryStore } from "../../ports/memory-store";

const T0 = Date.UTC(2026, 10, 1);

export function memDoc(teamId: string, id: string, o: Partial<MemDoc> = {}): MemDoc {
  return {
    id,
    teamId,
    namespace: `team/${teamId}/org/notes`,
    cls: "episodic",
    text: `memory ${id}`,
    tags: ["a", "b"],
    metadata: { source: "contract", n: 1 },
    pinned: false,
    tier: "hot",
    supersedes: null,
    importance: 10,
    createdAt: T0,
    refreshedAt: T0,
    lastUsedAt: null,
    tierChangedAt: T0,
    expiresAt: null,
    reinforceCount: 0,
    contentHash: `hash-${id}`,
    ...o,
  };
}

const ids = (docs: { id: string }[]) => docs.map((d) => d.id).sort();

export function memoryStoreContract(name: string, make: () => MemoryStore) {
  describe(`MemoryStore contract: ${name}`, () => {
    const team = () => `mc-${crypto.randomUUID().slice(0, 8)}`;

    it("returns what it stored, field for field, and nothing to another team", async () => {
      const store = make();
      const [a, b] = [team(), team()];
      const doc = memDoc(a, `${a}-1`, { pinned: true, supersedes: "old", expiresAt: T0 + 1000, tags: [] });
      await store.insertDocs([doc, memDoc(a, `${a}-2`, { cls: "kb", metadata: {} })]);
      expect((await store.getDocs(a, [doc.id])).map((d) => d)).toEqual([doc]);
      expect(ids(await store.getDocs(a, [doc.id, `${a}-2`, "missing"]))).toEqual([doc.id, `${a}-2`]);
      expect(await store.getDocs(b, [doc.id, `${a}-2`])).toEqual([]);
      expect(await store.getHotDocsForActor(b, [doc.id], "team", T0)).toEqual([]);
      expect(await store.findByContentHash(b, doc.contentHash as string)).toBeNull();
      expect(await store.hotDocsPage(b, "", 10)).toEqual([]);
    });

    it("rolls back a whole insert when one of its memories is refused (a repeated id)", async () => {
      const store = make();
      const a = team();
      await store.insertDocs([memDoc(a, `${a}-1`)]);
      await expect(store.insertDocs([memDoc(a, `${a}-2`), memDoc(a, `${a}-1`)])).rejects.toThrow();
      expect(ids(await store.hotDocsPage(a, "", 10))).toEqual([`${a}-1`]);
    });

    it("finds the oldest non-archived memory per content hash", async () => {
      const store = make();
      const a = team();
      await store.insertDocs([
        memDoc(a, `${a}-old`, { contentHash: "h1", createdAt: T0 - 10, tier: "archived" }),
        memDoc(a, `${a}-mid`, { contentHash: "h1", createdAt: T0 - 5 }),
        memDoc(a, `${a}-new`, { contentHash: "h1", createdAt: T0 }),
        memDoc(a, `${a}-other`, { contentHash: "h2" }),
      ]);
      expect((await store.findByContentHash(a, "h1"))?.id).toBe(`${a}-mid`);
      const found = await store.findByContentHashes(a, ["h1", "h2", "h3"]);
      expect([...found.entries()].map(([h, d]) => [h, d.id]).sort()).toEqual([
        ["h1", `${a}-mid`],
        ["h2", `${a}-other`],
      ]);
    });

    it("reinforces: +8 on the team row and the memory, recency restarts, count +1", async () => {
      const store = make();
      const a = team();
      await store.insertDocs([memDoc(a, `${a}-1`)]);
      await store.reinforce(a, `${a}-1`, T0 + 500);
      const [d] = await store.getDocs(a, [`${a}-1`]);
      expect(d).toMatchObject({ importance: 18, reinforceCount: 1, refreshedAt: T0 + 500 });
      const [hot] = await store.getHotDocsForActor(a, [`${a}-1`], "role:x", T0 + 600);
      expect(hot?.actorImportance).toBe(18);
    });

    it("records a use once per event id, boosting the actor's row from the team row", async () => {
      const store = make();
      const a = team();
      await store.insertDocs([memDoc(a, `${a}-1`), memDoc(a, `${a}-2`)]);
      const use = { docId: `${a}-1`, actorKey: "role:dev", runId: "r1", eventId: `use-${a}-1` };
      expect(await store.recordUses(a, [use], T0 + 100)).toEqual([`${a}-1`]);
      expect(await store.recordUses(a, [use], T0 + 200)).toEqual([]);
      const [forDev] = await store.getHotDocsForActor(a, [`${a}-1`], "role:dev", T0 + 300);
      expect(forDev).toMatchObject({ actorImportance: 18, importance: 18, lastUsedAt: T0 + 100 });
      const [forOther] = await store.getHotDocsForActor(a, [`${a}-1`], "role:ops", T0 + 300);
      expect(forOther?.actorImportance).toBe(10);
    });

    it("serves only hot, unexpired memories to an actor", async () => {
      const store = make();
      const a = team();
      await store.insertDocs([
        memDoc(a, `${a}-hot`),
        memDoc(a, `${a}-warm`, { tier: "warm" }),
        memDoc(a, `${a}-gone`, { expiresAt: T0 + 10 }),
      ]);
      const hot = await store.getHotDocsForActor(a, [`${a}-hot`, `${a}-warm`, `${a}-gone`], "team", T0 + 20);
      expect(ids(hot)).toEqual([`${a}-hot`]);
    });

    it("moves tiers, pages hot memories by id and lists importance changes since a time", async () => {
      const store = make();
      const a = team();
      await store.insertDocs([1, 2, 3, 4].map((i) => memDoc(a, `${a}-${i}`, { createdAt: T0 + i })));
      await store.setTier(a, [`${a}-2`], "warm", T0 + 50);
      expect(ids(await store.hotDocsPage(a, "", 2))).toEqual([`${a}-1`, `${a}-3`]);
      expect(ids(await store.hotDocsPage(a, `${a}-3`, 2))).toEqual([`${a}-4`]);
      expect((await store.getDocs(a, [`${a}-2`]))[0]).toMatchObject({ tier: "warm", tierChangedAt: T0 + 50 });
      await store.reinforce(a, `${a}-4`, T0 + 100);
      expect(await store.importanceChangedSince(a, T0 + 100, "", 10)).toEqual([`${a}-4`]);
      expect(await store.importanceChangedSince(a, T0, "", 10)).toEqual([`${a}-1`, `${a}-3`, `${a}-4`]);
      expect(await store.importanceChangedSince(team(), T0, "", 10)).toEqual([]);
    });

    it("lists and archives rigid memories of a namespace and kind", async () => {
      const store = make();
      const a = team();
      const ns = `team/${a}/org/charter`;
      await store.insertDocs([
        memDoc(a, `${a}-c1`, { cls: "rigid", namespace: ns, metadata: { rigid_kind: "charter" }, createdAt: T0 }),
        memDoc(a, `${a}-c2`, { cls: "rigid", namespace: ns, metadata: { rigid_kind: "allow" }, createdAt: T0 + 1 }),
      ]);
      expect(ids(await store.rigidDocs(a, 10))).toEqual([`${a}-c1`, `${a}-c2`]);
      expect(await store.archiveRigid(a, ns, "charter", T0 + 5)).toEqual([`${a}-c1`]);
      expect(ids(await store.rigidDocs(a, 10))).toEqual([`${a}-c2`]);
    });

    it("deletes memories with their importance and use rows, only the team's own", async () => {
      const store = make();
      const [a, b] = [team(), team()];
      await store.insertDocs([memDoc(a, `${a}-1`), memDoc(a, `${a}-2`), memDoc(b, `${b}-1`)]);
      await store.recordUses(a, [{ docId: `${a}-1`, actorKey: "role:dev", runId: null, eventId: `u-${a}` }], T0);
      await store.deleteDocs(a, [`${a}-1`, `${b}-1`]);
      expect(ids(await store.hotDocsPage(a, "", 10))).toEqual([`${a}-2`]);
      expect(ids(await store.hotDocsPage(b, "", 10))).toEqual([`${b}-1`]);
      // a memory written again under the deleted id starts from scratch: no importance row survived
      await store.insertDocs([memDoc(a, `${a}-1`, { importance: 10 })]);
      const [again] = await store.getHotDocsForActor(a, [`${a}-1`], "role:dev", T0);
      expect(again?.actorImportance).toBe(10);
    });
  });
}
