// PolicyStore over D1 with drizzle: profiles, mode ceilings, retry overrides and the pre-R2 decision log (read only).
import { and, asc, eq, gte, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { MemrlMode, MemrlPolicyProfile } from "../../../../contracts/memrl-policy";
import {
  activatePendingVersion,
  appliedOnce,
  insertNextVersion,
  pendingRequest,
  versionReads,
} from "../../../adapters/d1/next-version";
import { excluded, incoming } from "../../../adapters/d1/upsert";
import { retryAdjustments } from "../../learning/store/tables";
import type { PolicyStore, ProfileStatus, StoredProfile } from "./policy-store-port";
import { modeCeilingRequests, policyDecisions, policyProfiles, teamModes } from "./tables";

type ProfileRow = typeof policyProfiles.$inferSelect;

const toStored = (row: ProfileRow): StoredProfile => ({
  teamId: row.teamId,
  version: row.version,
  status: row.status as ProfileStatus,
  body: row.body as MemrlPolicyProfile,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
});

/** a mode's rank (enforce > observe > off); a `sql` CASE because drizzle's builder has no CASE expression */
const rank = (column: SQLiteColumn | SQL) =>
  sql`(CASE ${column} WHEN 'enforce' THEN 2 WHEN 'observe' THEN 1 ELSE 0 END)`;

/**
 * The one guarded lowering of a team's mode ceiling (team_mode is this module's table), as a statement the rollback
 * sweep puts in its own db.batch with the audit row: upserts only when `to` ranks below the current ceiling.
 */
export function lowerCeilingStatement(
  db: DrizzleD1Database,
  c: { teamId: string; to: string; reason: string; now: number },
) {
  return db
    .insert(teamModes)
    .values({ teamId: c.teamId, ceiling: c.to, reason: c.reason, updatedAt: c.now })
    .onConflictDoUpdate({
      target: teamModes.teamId,
      set: incoming(teamModes, ["ceiling", "reason", "updatedAt"]),
      setWhere: sql`${rank(teamModes.ceiling)} > ${rank(excluded(teamModes.ceiling))}`,
    });
}

/** sets a team's mode ceiling (insert or replace), from the admin route or an approved request */
async function setCeiling(db: DrizzleD1Database, teamId: string, ceiling: MemrlMode, reason: string, now: number) {
  await db
    .insert(teamModes)
    .values({ teamId, ceiling, reason, updatedAt: now })
    .onConflictDoUpdate({ target: teamModes.teamId, set: { ceiling, reason, updatedAt: now } });
}

/** a team's policy profiles by version: the active one, one version */
function profileRows(db: DrizzleD1Database): Pick<PolicyStore, "activeProfile" | "getProfile"> {
  const reads = versionReads(db, policyProfiles, toStored);
  return { activeProfile: reads.active, getProfile: reads.get };
}

/** new profile versions: a pending one added, a pending one activated (the active one retired) */
function profileVersions(db: DrizzleD1Database): Pick<PolicyStore, "addPendingProfile" | "activateProfile"> {
  return {
    async addPendingProfile(teamId, body, createdBy, now) {
      return insertNextVersion(db, policyProfiles, teamId, { status: "pending", body, createdBy, createdAt: now });
    },

    async activateProfile(teamId, version, now) {
      return activatePendingVersion(db, policyProfiles, teamId, version, { activatedAt: now });
    },
  };
}

/** a team's mode ceiling and the admin requests to change it */
function ceilingRows(
  db: DrizzleD1Database,
): Pick<
  PolicyStore,
  "modeCeiling" | "modeCeilingReason" | "setModeCeiling" | "addCeilingRequest" | "applyCeilingRequest"
> {
  return {
    async modeCeiling(teamId) {
      const [row] = await db.select({ ceiling: teamModes.ceiling }).from(teamModes).where(eq(teamModes.teamId, teamId));
      return (row?.ceiling as MemrlMode | undefined) ?? "enforce";
    },

    async modeCeilingReason(teamId) {
      const [row] = await db.select().from(teamModes).where(eq(teamModes.teamId, teamId));
      return row ? { ceiling: row.ceiling as MemrlMode, reason: row.reason, updated_at: row.updatedAt } : null;
    },

    async setModeCeiling(teamId, ceiling, reason, now) {
      await setCeiling(db, teamId, ceiling, reason, now);
    },

    async addCeilingRequest(teamId, ceiling, requestedBy, now) {
      return insertNextVersion(db, modeCeilingRequests, teamId, {
        ceiling,
        status: "pending",
        requestedBy,
        createdAt: now,
      });
    },

    async applyCeilingRequest(teamId, version, now) {
      const pending = await pendingRequest(db, modeCeilingRequests, teamId, version, now);
      if (!pending) return false;
      // Setting the ceiling first makes a retried activation safe: it sets the same value again.
      await setCeiling(db, teamId, pending.request.ceiling as MemrlMode, `admin request v${version} approved`, now);
      return appliedOnce(await pending.markApplied);
    },
  };
}

/** learned max-attempts overrides and the old decision table (read only) */
function learnedAndLoggedRows(db: DrizzleD1Database): Pick<PolicyStore, "maxAttemptsOverrides" | "loggedDecisions"> {
  return {
    async maxAttemptsOverrides(teamId) {
      const rows = await db
        .select({ failureClass: retryAdjustments.failureClass, override: retryAdjustments.maxAttemptsOverride })
        .from(retryAdjustments)
        .where(eq(retryAdjustments.teamId, teamId));
      const out: Record<string, number> = {};
      for (const r of rows) if (r.override !== null) out[r.failureClass] = r.override;
      return out;
    },

    async loggedDecisions(teamId, sinceMs, limit) {
      const rows = await db
        .select()
        .from(policyDecisions)
        .where(and(eq(policyDecisions.teamId, teamId), gte(policyDecisions.createdAt, sinceMs)))
        .orderBy(asc(policyDecisions.createdAt), asc(policyDecisions.decisionId))
        .limit(limit);
      return rows.map((r) => {
        const { _ceiling, ...inputs } = r.inputs as Record<string, unknown>;
        return {
          decision_id: r.decisionId,
          team_id: r.teamId,
          run_id: r.runId,
          task_id: r.taskId,
          inputs,
          inputs_digest: r.inputsDigest,
          profile_version: r.profileVersion,
          requested_mode: r.requestedMode as MemrlMode,
          effective_mode: r.effectiveMode as MemrlMode,
          ceiling: (_ceiling as MemrlMode | undefined) ?? "enforce",
          failure_class: r.failureClass,
          attempt_bucket: r.attemptBucket,
          rule_id: r.ruleId,
          raw_action: r.rawAction,
          selected_action: r.selectedAction,
          created_at: r.createdAt,
        };
      });
    },
  };
}

export function createD1PolicyStore(db: DrizzleD1Database): PolicyStore {
  return { ...profileRows(db), ...profileVersions(db), ...ceilingRows(db), ...learnedAndLoggedRows(db) };
}
