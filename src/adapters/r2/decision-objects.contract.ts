// The DecisionObjects contract: one suite run against the R2 adapter in workerd and against the in-memory fake in Node.
import { describe, expect, it } from "vitest";
import type { DecisionObjects } from "../../ports/decision-log";

export function decisionObjectsContract(name: string, make: () => DecisionObjects | Promise<DecisionObjects>) {
  describe(`DecisionObjects contract: ${name}`, () => {
    it("gives back what was put, null for a key never put, and the last body put under a key", async () => {
      const objects = await make();
      await objects.put("dc/t1/2026-11-27T20.ndjson", '{"a":1}\n');
      expect(await objects.get("dc/t1/2026-11-27T20.ndjson")).toBe('{"a":1}\n');
      expect(await objects.get("dc/t1/missing.ndjson")).toBeNull();
      await objects.put("dc/t1/2026-11-27T20.ndjson", '{"b":2}\n');
      expect(await objects.get("dc/t1/2026-11-27T20.ndjson")).toBe('{"b":2}\n');
    });

    it("lists the keys under a prefix that sort after startAfter, ascending, and none of another prefix", async () => {
      const objects = await make();
      for (const k of ["dc/t2/c", "dc/t2/a", "dc/t2/b", "dc/t20/a", "dc/t3/a"]) await objects.put(k, k);
      expect(await objects.list("dc/t2/", "")).toEqual(["dc/t2/a", "dc/t2/b", "dc/t2/c"]);
      expect(await objects.list("dc/t2/", "dc/t2/a")).toEqual(["dc/t2/b", "dc/t2/c"]);
      expect(await objects.list("dc/t2/", "dc/t2/c")).toEqual([]);
      expect(await objects.list("dc/t9/", "")).toEqual([]);
    });

    it("lists every key past one page of the bucket (1,000)", async () => {
      const objects = await make();
      const keys = Array.from({ length: 1005 }, (_, i) => `dc/page/${String(i).padStart(4, "0")}`);
      await Promise.all(keys.map((k) => objects.put(k, "x")));
      expect(await objects.list("dc/page/", "")).toEqual(keys);
    });
  });
}
