// GateSlaStore over D1 with drizzle: team_gate_sla (settings + audit row in one batch), SLA reads of the gate index,
// and gate_sla_alert (INSERT … ON CONFLICT DO NOTHING RETURNING: a breach alerted once whatever the concurrency).
import { and, asc, eq, gte, inArray, notInArray } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { auditInsert } from "../../audit";
import { gates } from "../../runs/store/tables";
import { breachKey } from "../domain";
import type { GateSlaStore, SlaBreach } from "./gate-sla-store-port";
import { gateSlaAlerts, teamGateSla } from "./tables";

/** gate kinds no person decides: never under an SLA (src/features/gates/sla.ts slaApplies) */
const MACHINE_KINDS = ["auto", "soft", "deny"];

const slaColumns = {
  team_id: gates.teamId,
  gate_id: gates.gateId,
  run_id: gates.runId,
  policy_key: gates.policyKey,
  kind: gates.kind,
  status: gates.status,
  opened_at: gates.openedAt,
  acked_by: gates.ackedBy,
  acked_at: gates.ackedAt,
  decided_at: gates.decidedAt,
};

/** a team's SLA settings (team_gate_sla), written with their audit row */
function gateSlaSettings(db: DrizzleD1Database): Pick<GateSlaStore, "get" | "put"> {
  return {
    async get(teamId) {
      const rows = await db
        .select({
          settings: teamGateSla.settings,
          updated_by: teamGateSla.updatedBy,
          updated_at: teamGateSla.updatedAt,
        })
        .from(teamGateSla)
        .where(eq(teamGateSla.teamId, teamId))
        .limit(1);
      return rows[0] ?? null;
    },

    async put(teamId, settings, audit) {
      const row = { teamId, settings, updatedBy: audit.actor, updatedAt: audit.createdAt };
      await db.batch([
        db
          .insert(teamGateSla)
          .values(row)
          .onConflictDoUpdate({
            target: teamGateSla.teamId,
            set: { settings, updatedBy: row.updatedBy, updatedAt: row.updatedAt },
          }),
        auditInsert(db, audit),
      ]);
    },
  };
}

/** the gates an SLA sweep looks at and the breaches already alerted */
function gateSlaBreaches(
  db: DrizzleD1Database,
): Pick<GateSlaStore, "gatesOpenedSince" | "openGates" | "alerted" | "claimAlerts"> {
  return {
    async gatesOpenedSince(teamId, since, limit) {
      return db
        .select(slaColumns)
        .from(gates)
        .where(and(eq(gates.teamId, teamId), gte(gates.openedAt, since), notInArray(gates.kind, MACHINE_KINDS)))
        .orderBy(asc(gates.openedAt), asc(gates.gateId))
        .limit(limit);
    },

    async openGates(limit) {
      return db
        .select(slaColumns)
        .from(gates)
        .where(and(eq(gates.status, "pending"), notInArray(gates.kind, MACHINE_KINDS)))
        .orderBy(asc(gates.openedAt), asc(gates.gateId))
        .limit(limit);
    },

    async alerted(keys) {
      if (keys.length === 0) return new Set();
      const rows = await db
        .select({ gateId: gateSlaAlerts.gateId, breach: gateSlaAlerts.breach })
        .from(gateSlaAlerts)
        .where(inArray(gateSlaAlerts.gateId, [...new Set(keys.map((k) => k.gate_id))]));
      return new Set(rows.map((r) => breachKey(r.gateId, r.breach as SlaBreach)));
    },

    async claimAlerts(breaches, now) {
      if (breaches.length === 0) return [];
      const rows = await db
        .insert(gateSlaAlerts)
        .values(breaches.map((b) => ({ gateId: b.gate_id, breach: b.breach, teamId: b.team_id, alertedAt: now })))
        .onConflictDoNothing()
        .returning({ gateId: gateSlaAlerts.gateId, breach: gateSlaAlerts.breach });
      return rows.map((r) => breachKey(r.gateId, r.breach as SlaBreach));
    },
  };
}

export function createD1GateSlaStore(db: DrizzleD1Database): GateSlaStore {
  return { ...gateSlaSettings(db), ...gateSlaBreaches(db) };
}
