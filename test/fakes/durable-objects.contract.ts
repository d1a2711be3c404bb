// The Durable Object behaviour Warden relies on, as one suite: run against workerd's objects
// (durable-objects.contract.test.ts) and the same classes hosted by the Node stand-in (durable-objects.contract.unit.test.ts).
import { describe, expect, it } from "vitest";
import type { VectorIndexDO } from "../../durable-objects/vector-index-do";
import { EMBEDDING_DIMENSIONS } from "../../src/lib/vector-math";

type Stub = { id: DurableObjectId };
type Namespace<S> = {
  idFromName(name: string): DurableObjectId;
  idFromString(hex: string): DurableObjectId;
  newUniqueId(): DurableObjectId;
  get(id: DurableObjectId): S & Stub;
};
/** VectorIndexDO's methods as its callers see them over RPC (every result a promise). */
type VectorStub = {
  [K in "upsert" | "setCards" | "queryCards" | "query" | "size" | "accelerated" | "memoryCall"]: (
    ...args: Parameters<VectorIndexDO[K]>
  ) => Promise<Awaited<ReturnType<VectorIndexDO[K]>>>;
};
/** What a test reaches in an object runtime: the namespaces of wrangler.toml and workerd's test hooks. */
export type ObjectRuntime = {
  VECTOR_INDEX: Namespace<VectorStub>;
  BOARD: Namespace<unknown>;
  runIn<R>(stub: Stub, fn: (instance: any, state: DurableObjectState) => R | Promise<R>): Promise<R>;
  runAlarm(stub: Stub): Promise<boolean>;
  evict(stub: Stub): Promise<void>;
};

const unit = (i: number) => {
  const v = new Float32Array(EMBEDDING_DIMENSIONS);
  v[i] = 1;
  return v;
};
const name = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

export function durableObjectContract(runtime: string, open: () => Promise<ObjectRuntime>) {
  describe(`Durable Object contract: ${runtime}`, () => {
    const team = async (prefix = "doc") => {
      const rt = await open();
      const stub = rt.VECTOR_INDEX.get(rt.VECTOR_INDEX.idFromName(name(prefix)));
      return { rt, stub };
    };

    it("ids: the same name is the same object, another name another; ids round-trip through their string", async () => {
      const rt = await open();
      const n = name("ids");
      const a = rt.VECTOR_INDEX.idFromName(n);
      expect(a.toString()).toMatch(/^[0-9a-f]{64}$/);
      expect(a.equals(rt.VECTOR_INDEX.idFromName(n))).toBe(true);
      expect(a.equals(rt.VECTOR_INDEX.idFromName(`${n}-other`))).toBe(false);
      expect(rt.VECTOR_INDEX.idFromString(a.toString()).equals(a)).toBe(true);
      expect(a.name).toBe(n);
      const unique = rt.VECTOR_INDEX.newUniqueId();
      expect(unique.equals(rt.VECTOR_INDEX.newUniqueId())).toBe(false);
      await rt.VECTOR_INDEX.get(a).upsert([{ id: "x", values: unit(0), metadata: {} }]);
      expect(await rt.VECTOR_INDEX.get(rt.VECTOR_INDEX.idFromString(a.toString())).size()).toBe(1);
      expect(await rt.VECTOR_INDEX.get(rt.VECTOR_INDEX.idFromName(`${n}-other`)).size()).toBe(0);
    });

    it("RPC copies arguments and results: a caller's later change reaches nothing, typed arrays arrive whole", async () => {
      const { stub } = await team();
      const values = unit(3);
      const card = { text: "a", n: 1 };
      const sent = stub.upsert([{ id: "v", values, metadata: { k: 1 }, card }]);
      values[3] = 0;
      values[4] = 1;
      card.text = "changed";
      expect(await sent).toBe(1);
      const [hit] = await stub.queryCards(unit(3), 1);
      expect(hit).toMatchObject({ id: "v", card: { text: "a", n: 1 } });
      expect(hit?.score).toBeCloseTo(1, 5);
      (hit?.card as { text: string }).text = "mutated by the caller";
      expect((await stub.queryCards(unit(3), 1))[0]?.card).toEqual({ text: "a", n: 1 });
    });

    it("storage outlives the instance: after eviction the object rebuilds its state from SQLite", async () => {
      const { rt, stub } = await team();
      await stub.upsert([
        { id: "a", values: unit(1), metadata: { k: 1 } },
        { id: "b", values: unit(2), metadata: { k: 2 } },
      ]);
      await stub.setCards([{ id: "a", card: { text: "card a" } as never }]);
      await rt.evict(stub);
      expect(await stub.size()).toBe(2);
      expect(await stub.accelerated()).toBe(true);
      const [hit] = await stub.queryCards(unit(1), 1, { k: 1 });
      expect(hit).toMatchObject({ id: "a", card: { text: "card a" } });
    });

    it("a refused memory operation comes back as a value and leaves nothing half-written", async () => {
      const { stub } = await team("mem");
      const doc = (id: string) => ({
        id,
        namespace: "team/t/org/notes",
        cls: "episodic",
        text: id,
        tags: [],
        metadata: {},
        pinned: false,
        tier: "hot",
        supersedes: null,
        importance: 10,
        createdAt: 1,
        refreshedAt: 1,
        lastUsedAt: null,
        tierChangedAt: 1,
        expiresAt: null,
        reinforceCount: 0,
        contentHash: `h-${id}`,
      });
      expect(await stub.memoryCall("insertDocs", [[doc("m1")]] as never)).toEqual({ ok: true, value: undefined });
      const refused = await stub.memoryCall("insertDocs", [[doc("m2"), doc("m1")]] as never);
      expect(refused.ok).toBe(false);
      const got = await stub.memoryCall("getDocs", [["m1", "m2"]] as never);
      expect(got.ok && (got.value as { id: string }[]).map((d) => d.id)).toEqual(["m1"]);
      expect(await stub.memoryCall("nope" as never, [] as never)).toEqual({
        ok: false,
        error: "unknown memory operation: nope",
      });
    });

    it("sql.exec: several statements at once, bindings, rows by iteration, toArray and one, rowsWritten, blobs", async () => {
      const { rt, stub } = await team("sql");
      await rt.runIn(stub, (_i, state) => {
        const sql = state.storage.sql;
        sql.exec("CREATE TABLE zz (k TEXT PRIMARY KEY, n INTEGER, b BLOB); CREATE INDEX zz_n ON zz (n);");
        expect(sql.exec("INSERT INTO zz (k, n) VALUES (?, ?), (?, ?)", "a", 1, "b", 2).rowsWritten).toBeGreaterThan(0);
        expect(sql.exec("UPDATE zz SET n = n + 1 WHERE k = ?", "zz").rowsWritten).toBe(0);
        expect(sql.exec("UPDATE zz SET n = n + 1 WHERE k = ?", "a").rowsWritten).toBeGreaterThan(0);
        expect([...sql.exec<{ k: string; n: number }>("SELECT k, n FROM zz ORDER BY k")]).toEqual([
          { k: "a", n: 2 },
          { k: "b", n: 2 },
        ]);
        expect(sql.exec("SELECT count(*) AS c FROM zz").one()).toEqual({ c: 2 });
        expect(() => sql.exec("SELECT k FROM zz").one()).toThrow();
        const bytes = new Float32Array([0.5, -1]);
        sql.exec("UPDATE zz SET b = ? WHERE k = 'a'", bytes.buffer);
        const [row] = sql.exec<{ b: ArrayBuffer }>("SELECT b FROM zz WHERE k = 'a'").toArray();
        expect(row?.b).toBeInstanceOf(ArrayBuffer);
        expect([...new Float32Array(row!.b)]).toEqual([0.5, -1]);
        expect(sql.exec("DELETE FROM zz WHERE k = ? RETURNING k", "b").toArray()).toEqual([{ k: "b" }]);
        expect(() => sql.exec("INSERT INTO zz (k, n) VALUES ('a', 9)")).toThrow(/UNIQUE/);
      });
    });

    it("transactionSync: every write or none, its value returned; the error of a refused one rethrown", async () => {
      const { rt, stub } = await team("tx");
      await rt.runIn(stub, (_i, state) => {
        const { sql } = state.storage;
        sql.exec("CREATE TABLE zt (k TEXT PRIMARY KEY)");
        expect(
          state.storage.transactionSync(() => sql.exec("INSERT INTO zt VALUES ('a') RETURNING k").toArray()),
        ).toEqual([{ k: "a" }]);
        expect(() =>
          state.storage.transactionSync(() => {
            sql.exec("INSERT INTO zt VALUES ('b')");
            throw new Error("refused");
          }),
        ).toThrow("refused");
        expect(sql.exec("SELECT k FROM zt").toArray()).toEqual([{ k: "a" }]);
      });
    });

    it("key-value storage: put many, get, list by prefix in key order, delete counts; values are copies", async () => {
      const { rt, stub } = await team("kv");
      await rt.runIn(stub, async (_i, state) => {
        const s = state.storage;
        const value = { n: 1, at: [1, 2] };
        await s.put({ "ev:2": value, "ev:1": { n: 0 }, meta: "m" });
        value.n = 99;
        expect(await s.get("ev:2")).toEqual({ n: 1, at: [1, 2] });
        expect(await s.get("missing")).toBeUndefined();
        expect([...(await s.list({ prefix: "ev:" })).entries()]).toEqual([
          ["ev:1", { n: 0 }],
          ["ev:2", { n: 1, at: [1, 2] }],
        ]);
        expect(await s.delete(["ev:1", "ev:9"])).toBe(1);
        expect([...(await s.list({ prefix: "ev:" })).keys()]).toEqual(["ev:2"]);
      });
    });

    it("alarms: set, read and deleted; a set alarm runs the object's alarm handler once, then is cleared", async () => {
      const rt = await open();
      const stub = rt.BOARD.get(rt.BOARD.idFromName(`board:${name("alarm")}`));
      expect(await rt.runIn(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
      expect(await rt.runAlarm(stub)).toBe(false);
      const at = Date.now() + 3_600_000;
      await rt.runIn(stub, async (_i, state) => {
        await state.storage.setAlarm(at);
        expect(await state.storage.getAlarm()).toBe(at);
        await state.storage.deleteAlarm();
        expect(await state.storage.getAlarm()).toBeNull();
        await state.storage.setAlarm(at);
      });
      expect(await rt.runAlarm(stub)).toBe(true);
      expect(await rt.runIn(stub, (_i, state) => state.storage.getAlarm())).toBeNull();
      expect(await rt.runAlarm(stub)).toBe(false);
    });

    it("blockConcurrencyWhile holds the object's next call until it settles", async () => {
      const { rt, stub } = await team("gate");
      const order: string[] = [];
      await rt.runIn(stub, (_i, state) => {
        void state.blockConcurrencyWhile(async () => {
          await new Promise((r) => setTimeout(r, 50));
          order.push("gate");
        });
      });
      await stub.size().then(() => order.push("call"));
      expect(order).toEqual(["gate", "call"]);
    });
  });
}
