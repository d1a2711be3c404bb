// DeployApproverStore over D1: deploy_approver rows (one per team and subject) and deploy_approver_request versions.
import { and, asc, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { batchAll } from "../../../adapters/d1/batch";
import { nextVersion } from "../../../adapters/d1/next-version";
import { auditInsert } from "../../audit";
import type { DeployApproverStore } from "./deploy-approvers-port";
import { deployApproverRequests, deployApprovers } from "./tables";

export function createD1DeployApproverStore(db: DrizzleD1Database): DeployApproverStore {
  return {
    async forTeam(teamId) {
      const rows = await db
        .select({ subject: deployApprovers.subject })
        .from(deployApprovers)
        .where(eq(deployApprovers.teamId, teamId))
        .orderBy(asc(deployApprovers.subject));
      return rows.map((r) => r.subject);
    },
    async addRequest(teamId, subjects, requestedBy, now) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const [inserted] = await db
          .insert(deployApproverRequests)
          .values({
            teamId,
            version: nextVersion(deployApproverRequests, teamId),
            subjects: JSON.stringify(subjects),
            status: "pending",
            requestedBy,
            createdAt: now,
          })
          .onConflictDoNothing()
          .returning({ version: deployApproverRequests.version });
        if (inserted) return inserted.version;
      }
      throw new Error(`team ${teamId}: no free approver-request version after 5 attempts`);
    },
    async applyRequest(teamId, version, now, audit) {
      const where = and(
        eq(deployApproverRequests.teamId, teamId),
        eq(deployApproverRequests.version, version),
        eq(deployApproverRequests.status, "pending"),
      );
      const [request] = await db.select().from(deployApproverRequests).where(where);
      if (!request) return false;
      const subjects = JSON.parse(request.subjects) as string[];
      const [marked] = await batchAll(db, [
        db.update(deployApproverRequests).set({ status: "applied", appliedAt: now }).where(where),
        db.delete(deployApprovers).where(eq(deployApprovers.teamId, teamId)),
        ...subjects.map((subject) => db.insert(deployApprovers).values({ teamId, subject, version, addedAt: now })),
        auditInsert(db, audit),
      ]);
      return (marked as { meta: { changes: number } }).meta.changes === 1;
    },
  };
}
