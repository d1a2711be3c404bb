// GateRuleStore over D1 with drizzle: versioned gate rule sets per team, activated by a guarded batch.
import { and, desc, eq, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { nextVersion } from "../../../adapters/d1/next-version";
import type { GateRuleStore, StoredGateRules } from "./gate-rule-store-port";
import { gateRules } from "./tables";

type Row = typeof gateRules.$inferSelect;
const toStored = (r: Row): StoredGateRules => ({
  version: r.version,
  status: r.status as StoredGateRules["status"],
  body: r.body,
  createdAt: r.createdAt,
});

export function createD1GateRuleStore(db: DrizzleD1Database): GateRuleStore {
  return {
    async active(teamId) {
      const [row] = await db
        .select()
        .from(gateRules)
        .where(and(eq(gateRules.teamId, teamId), eq(gateRules.status, "active")))
        .orderBy(desc(gateRules.version))
        .limit(1);
      return row ? toStored(row) : null;
    },

    async get(teamId, version) {
      const [row] = await db
        .select()
        .from(gateRules)
        .where(and(eq(gateRules.teamId, teamId), eq(gateRules.version, version)));
      return row ? toStored(row) : null;
    },

    async addPending(teamId, body, now) {
      // (team_id, version) is the primary key: a concurrent writer's insert fails instead of overwriting
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await db
          .insert(gateRules)
          .values({ teamId, version: nextVersion(gateRules, teamId), status: "pending", body, createdAt: now })
          .onConflictDoNothing()
          .returning({ version: gateRules.version });
        if (inserted[0]) return inserted[0].version;
      }
      throw new Error("could not allocate a gate rule version");
    },

    async activate(teamId, version, now) {
      void now;
      const pending = sql`exists (select 1 from ${gateRules} where ${gateRules.teamId} = ${teamId} and ${gateRules.version} = ${version} and ${gateRules.status} = 'pending')`;
      const [, activated] = await db.batch([
        // retire the active set only when the target is still pending, so a repeated activation changes nothing
        db
          .update(gateRules)
          .set({ status: "retired" })
          .where(and(eq(gateRules.teamId, teamId), eq(gateRules.status, "active"), pending)),
        db
          .update(gateRules)
          .set({ status: "active" })
          .where(and(eq(gateRules.teamId, teamId), eq(gateRules.version, version), eq(gateRules.status, "pending"))),
      ]);
      return activated.meta.changes === 1;
    },
  };
}
