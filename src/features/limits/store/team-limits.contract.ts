// The TeamLimitStore contract every implementation passes (D1 adapter in workerd, in-memory fake in Node), as one suite.
import { describe, expect, it } from "vitest";
import type { AuditLogStore } from "../../../ports/audit-log";
import type { TeamLimitRow, TeamLimitStore } from "../../../ports/team-limits";
import { auditEntry } from "../../audit/store/audit-log.contract";

const team = () => `t-limits-${crypto.randomUUID()}`;
const row = (routeClass: string, perTeam: number): TeamLimitRow => ({
  routeClass,
  perTeam,
  perSubject: Math.ceil(perTeam / 2),
  periodS: 60,
});
const byClass = (rows: TeamLimitRow[]) => [...rows].sort((a, b) => a.routeClass.localeCompare(b.routeClass));

/** `make` answers the store and the audit log its putAll writes into. */
export function teamLimitStoreContract(name: string, make: () => { limits: TeamLimitStore; audit: AuditLogStore }) {
  describe(`TeamLimitStore contract: ${name}`, () => {
    it("has no rows for a team that set none", async () => {
      expect(await make().limits.forTeam(team())).toEqual([]);
    });

    it("keeps one row per route class: a second put replaces the first", async () => {
      const { limits } = make();
      const t = team();
      await limits.put(t, row("writes", 10), 1_000);
      await limits.put(t, row("reads", 50), 1_000);
      await limits.put(t, row("writes", 20), 2_000);
      expect(byClass(await limits.forTeam(t))).toEqual([row("reads", 50), row("writes", 20)]);
    });

    it("keeps teams apart", async () => {
      const { limits } = make();
      const [a, b] = [team(), team()];
      await limits.put(a, row("writes", 10), 1_000);
      expect(await limits.forTeam(b)).toEqual([]);
    });

    it("writes every row of putAll and its audit entry", async () => {
      const { limits, audit } = make();
      const t = team();
      await limits.put(t, row("writes", 10), 1_000);
      const entry = auditEntry(t, 2_000);
      await limits.putAll(t, [row("writes", 30), row("decide", 99)], 2_000, entry);
      expect(byClass(await limits.forTeam(t))).toEqual([row("decide", 99), row("writes", 30)]);
      expect((await audit.list(t, { limit: 10 })).entries).toEqual([entry]);
    });

    it("keeps a limit request pending until applied, then applies its rows and audit once", async () => {
      const { limits, audit } = make();
      const t = team();
      await limits.put(t, row("writes", 10), 1_000);
      const v1 = await limits.addRequest(t, [row("writes", 500), row("decide", 900)], "ann", 2_000);
      const v2 = await limits.addRequest(t, [row("reads", 700)], "ann", 2_500);
      expect([v1, v2]).toEqual([1, 2]);
      // pending: nothing applied yet
      expect(await limits.forTeam(t)).toEqual([row("writes", 10)]);
      const entry = auditEntry(t, 3_000);
      expect(await limits.applyRequest(t, v1, 3_000, entry)).toBe(true);
      expect(byClass(await limits.forTeam(t))).toEqual([row("decide", 900), row("writes", 500)]);
      expect((await audit.list(t, { limit: 10 })).entries).toEqual([entry]);
      // a second activation, an unknown version and another team's version change nothing
      expect(await limits.applyRequest(t, v1, 4_000, auditEntry(t, 4_000))).toBe(false);
      expect(await limits.applyRequest(t, 9, 4_000, auditEntry(t, 4_000))).toBe(false);
      expect(await limits.applyRequest(team(), v2, 4_000, auditEntry(t, 4_000))).toBe(false);
      expect(byClass(await limits.forTeam(t))).toEqual([row("decide", 900), row("writes", 500)]);
      expect((await audit.list(t, { limit: 10 })).entries).toEqual([entry]);
    });
  });
}
