// The AuditLogStore contract every implementation passes (D1 adapter in workerd, in-memory fake in Node), as one suite.
import { describe, expect, it } from "vitest";
import type { AuditEntry, AuditLogStore } from "../../../ports/audit-log";

/** An entry of `teamId` at `createdAt`; ids are unique per call unless given. */
export function auditEntry(teamId: string, createdAt: number, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: `aud-${crypto.randomUUID()}`,
    teamId,
    actor: "user:alice",
    action: "limits.changed",
    subjectType: "team",
    subjectId: teamId,
    metadata: { route_class: "writes", per_team: 10 },
    createdAt,
    ...extra,
  };
}

const team = () => `t-audit-${crypto.randomUUID()}`;

export function auditLogContract(name: string, make: () => AuditLogStore) {
  describe(`AuditLogStore contract: ${name}`, () => {
    it("lists a team's entries newest first, as appended (metadata included), and no other team's", async () => {
      const log = make();
      const [a, b] = [team(), team()];
      const old = auditEntry(a, 1_000);
      const recent = auditEntry(a, 2_000, { metadata: null, action: "key.revoked" });
      await log.append([old, recent, auditEntry(b, 3_000)]);
      expect((await log.list(a, { limit: 10 })).entries).toEqual([recent, old]);
      expect((await log.list(a, { limit: 10 })).nextCursor).toBeNull();
      expect((await log.list(team(), { limit: 10 })).entries).toEqual([]);
    });

    it("keeps the first entry of an id appended twice (a redelivered event writes one row)", async () => {
      const log = make();
      const t = team();
      const first = auditEntry(t, 1_000);
      await log.append([first]);
      await log.append([{ ...first, actor: "user:mallory", createdAt: 9_000 }]);
      await log.append([]);
      expect((await log.list(t, { limit: 10 })).entries).toEqual([first]);
    });

    it("filters by action", async () => {
      const log = make();
      const t = team();
      const revoked = auditEntry(t, 2_000, { action: "key.revoked" });
      await log.append([auditEntry(t, 1_000), revoked, auditEntry(t, 3_000)]);
      expect((await log.list(t, { limit: 10, action: "key.revoked" })).entries).toEqual([revoked]);
    });

    it("pages with a cursor: every entry once, newest first, ties on created_at by id descending", async () => {
      const log = make();
      const t = team();
      const entries = [1, 2, 2, 2, 3, 4, 4].map((s, i) => auditEntry(t, s * 1_000, { id: `aud-${i}` }));
      await log.append(entries);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const got = await log.list(t, { limit: 3, ...(cursor ? { cursor } : {}) });
        seen.push(...got.entries.map((e) => e.id));
        if (!got.nextCursor) break;
        expect(got.entries).toHaveLength(3);
        cursor = got.nextCursor;
      }
      expect(seen).toEqual(["aud-6", "aud-5", "aud-4", "aud-3", "aud-2", "aud-1", "aud-0"]);
    });
  });
}
