// The store contracts against the D1 adapters in workerd; the in-memory fakes pass the same suites in Node
// (test/fakes/stores.contract.unit.test.ts).
import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import { createD1AuditLog } from "../../features/audit";
import { auditLogContract } from "../../features/audit/store/audit-log.contract";
import { createD1DeployApproverStore } from "../../features/gates/store/deploy-approvers";
import { deployApproverStoreContract } from "../../features/gates/store/deploy-approvers.contract";
import { createD1TeamLimitStore } from "../../features/limits/store/team-limits";
import { teamLimitStoreContract } from "../../features/limits/store/team-limits.contract";

auditLogContract("D1", () => createD1AuditLog(drizzle(env.DB)));
teamLimitStoreContract("D1", () => ({
  limits: createD1TeamLimitStore(drizzle(env.DB)),
  audit: createD1AuditLog(drizzle(env.DB)),
}));
deployApproverStoreContract("D1", () => ({
  approvers: createD1DeployApproverStore(drizzle(env.DB)),
  audit: createD1AuditLog(drizzle(env.DB)),
}));
