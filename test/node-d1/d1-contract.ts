// The D1 behaviour Warden's adapters rely on, as one suite: run against workerd's local D1 (d1.contract.test.ts) and
// against the Node stand-in (d1.contract.unit.test.ts), so a Node test over the stand-in means what it would in workerd.
import { beforeEach, describe, expect, it } from "vitest";

const TABLE = "zz_d1_contract";

export function d1Contract(name: string, open: () => Promise<D1Database>) {
  describe(`D1 contract: ${name}`, () => {
    let db: D1Database;
    beforeEach(async () => {
      db = await open();
      await db.prepare(`DROP TABLE IF EXISTS ${TABLE}`).run();
      await db
        .prepare(`CREATE TABLE ${TABLE} (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER, r REAL)`)
        .run();
    });

    it("reads rows with first, first(column) and all; first is null when nothing matches", async () => {
      await db
        .prepare(`INSERT INTO ${TABLE} (name, n, r) VALUES (?, ?, ?), (?, ?, ?)`)
        .bind("a", 1, 0.5, "b", 2, 1.5)
        .run();
      expect(await db.prepare(`SELECT name, n, r FROM ${TABLE} ORDER BY name`).first()).toEqual({
        name: "a",
        n: 1,
        r: 0.5,
      });
      expect(await db.prepare(`SELECT n FROM ${TABLE} WHERE name = ?`).bind("b").first("n")).toBe(2);
      expect(await db.prepare(`SELECT n FROM ${TABLE} WHERE name = ?`).bind("zz").first()).toBeNull();
      const all = await db.prepare(`SELECT name FROM ${TABLE} ORDER BY name DESC`).all<{ name: string }>();
      expect(all.success).toBe(true);
      expect(all.results).toEqual([{ name: "b" }, { name: "a" }]);
    });

    it("counts changes and the last row id of a write, and returns RETURNING rows", async () => {
      const first = await db.prepare(`INSERT INTO ${TABLE} (name) VALUES (?)`).bind("a").run();
      expect(first.meta.changes).toBe(1);
      expect(first.meta.last_row_id).toBe(1);
      await db.prepare(`INSERT INTO ${TABLE} (name) VALUES ('b'), ('c')`).run();
      const updated = await db.prepare(`UPDATE ${TABLE} SET n = 7 WHERE name <> ?`).bind("a").run();
      expect(updated.meta.changes).toBe(2);
      const returned = await db
        .prepare(`UPDATE ${TABLE} SET n = n + 1 WHERE name = ? RETURNING name, n`)
        .bind("b")
        .all();
      expect(returned.results).toEqual([{ name: "b", n: 8 }]);
    });

    it("binds booleans as 1 and 0 and null as NULL, and refuses undefined", async () => {
      await db.prepare(`INSERT INTO ${TABLE} (name, n, r) VALUES (?, ?, ?)`).bind("t", true, null).run();
      await db.prepare(`INSERT INTO ${TABLE} (name, n) VALUES (?, ?)`).bind("f", false).run();
      expect((await db.prepare(`SELECT name, n, r FROM ${TABLE} ORDER BY name`).all()).results).toEqual([
        { name: "f", n: 0, r: null },
        { name: "t", n: 1, r: null },
      ]);
      await expect(
        (async () => db.prepare(`INSERT INTO ${TABLE} (name) VALUES (?)`).bind(undefined).run())(),
      ).rejects.toThrow();
    });

    it("runs a batch as one transaction: a failing statement leaves none of the batch behind", async () => {
      await db.prepare(`INSERT INTO ${TABLE} (name) VALUES ('taken')`).run();
      const insert = (n: string) => db.prepare(`INSERT INTO ${TABLE} (name) VALUES (?)`).bind(n);
      await expect(db.batch([insert("x"), insert("y"), insert("taken")])).rejects.toThrow(/UNIQUE/);
      expect((await db.prepare(`SELECT name FROM ${TABLE}`).all()).results).toEqual([{ name: "taken" }]);
      const results = await db.batch([insert("x"), db.prepare(`SELECT count(*) AS c FROM ${TABLE}`)]);
      expect(results.map((r) => r.results)).toEqual([[], [{ c: 2 }]]);
    });

    it("answers raw rows as arrays, with the column names first when asked", async () => {
      await db.prepare(`INSERT INTO ${TABLE} (name, n) VALUES ('a', 1), ('b', 2)`).run();
      const stmt = db.prepare(`SELECT name, n FROM ${TABLE} ORDER BY name`);
      expect(await stmt.raw()).toEqual([
        ["a", 1],
        ["b", 2],
      ]);
      expect(await stmt.raw({ columnNames: true })).toEqual([
        ["name", "n"],
        ["a", 1],
        ["b", 2],
      ]);
    });

    it("refuses a write a trigger RAISEs on with its message; a table exec renamed away fails a batch until renamed back", async () => {
      // what runs/record relies on: the append-only triggers of approval_event, and a D1 batch failing mid-outbox
      await db.exec(
        `CREATE TRIGGER ${TABLE}_keep BEFORE DELETE ON ${TABLE} BEGIN SELECT RAISE(ABORT, 'append-only'); END`,
      );
      await db.prepare(`INSERT INTO ${TABLE} (name) VALUES ('kept')`).run();
      await expect(db.prepare(`DELETE FROM ${TABLE}`).run()).rejects.toThrow(/append-only/);
      await db.exec(`ALTER TABLE ${TABLE} RENAME TO ${TABLE}_parked`);
      try {
        const insert = async () => db.batch([db.prepare(`INSERT INTO ${TABLE} (name) VALUES ('x')`)]);
        await expect(insert()).rejects.toThrow(/no such table/);
      } finally {
        await db.exec(`ALTER TABLE ${TABLE}_parked RENAME TO ${TABLE}`);
      }
      expect((await db.prepare(`SELECT name FROM ${TABLE}`).all()).results).toEqual([{ name: "kept" }]);
    });

    it("refuses a statement that does not parse, and a constraint it breaks", async () => {
      await expect(db.prepare(`SELEC name FROM ${TABLE}`).all()).rejects.toThrow();
      await expect(db.prepare(`INSERT INTO ${TABLE} (n) VALUES (1)`).run()).rejects.toThrow(/NOT NULL/);
    });
  });
}
