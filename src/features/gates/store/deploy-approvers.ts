// DeployApproverStore over D1: deploy_approver rows (one per team and subject) and deploy_approver_request versions.
import { asc, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { jsonBodyRequests } from "../../../adapters/d1/next-version";
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
    ...jsonBodyRequests(db, deployApproverRequests, "subjects", (subjects: string[], r) => [
      db.delete(deployApprovers).where(eq(deployApprovers.teamId, r.teamId)),
      ...subjects.map((subject) =>
        db.insert(deployApprovers).values({ teamId: r.teamId, subject, version: r.version, addedAt: r.now }),
      ),
      auditInsert(db, r.audit),
    ]),
  };
}
