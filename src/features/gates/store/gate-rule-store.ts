// GateRuleStore over D1 with drizzle: versioned gate rule sets per team, activated by a guarded batch.
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { activatePendingVersion, insertNextVersion, versionReads } from "../../../adapters/d1/next-version";
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
    ...versionReads(db, gateRules, toStored),

    async addPending(teamId, body, now) {
      return insertNextVersion(db, gateRules, teamId, { status: "pending", body, createdAt: now });
    },

    async activate(teamId, version) {
      return activatePendingVersion(db, gateRules, teamId, version);
    },
  };
}
