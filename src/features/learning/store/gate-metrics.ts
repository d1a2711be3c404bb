// gate_metric writes (D1, drizzle): gate.opened / gate.decided as seen on EVENTS, merged per (team, gate).
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { incomingElseStored, storedElseIncoming } from "../../../adapters/d1/upsert";
import { gateMetrics } from "./tables";

/**
 * Upserts the rows in one batch. Events of a gate arrive in any order, so each column keeps its known value: the
 * incoming one, else the stored one — but opened_at keeps the first seen.
 */
export async function recordGateMetrics(db: DrizzleD1Database, rows: (typeof gateMetrics.$inferInsert)[]) {
  const g = gateMetrics;
  await batchAll(
    db,
    rows.map((row) =>
      db
        .insert(gateMetrics)
        .values(row)
        .onConflictDoUpdate({
          target: [g.teamId, g.gateId],
          set: {
            policyKey: incomingElseStored(g.policyKey),
            kind: incomingElseStored(g.kind),
            openedAt: storedElseIncoming(g.openedAt),
            decidedAt: incomingElseStored(g.decidedAt),
            decision: incomingElseStored(g.decision),
            decidedBy: incomingElseStored(g.decidedBy),
            latencyMs: incomingElseStored(g.latencyMs),
          },
        }),
    ),
  );
}
