// The in-memory store fakes against the contracts their D1 adapters pass in workerd (src/adapters/d1/stores.contract.test.ts).
import { auditLogContract } from "../../src/features/audit/store/audit-log.contract";
import { deployApproverStoreContract } from "../../src/features/gates/store/deploy-approvers.contract";
import { teamLimitStoreContract } from "../../src/features/limits/store/team-limits.contract";
import { createMemoryAuditLog, createMemoryDeployApproverStore, createMemoryTeamLimitStore } from "./audit-and-limits";

auditLogContract("in-memory fake", () => createMemoryAuditLog());
teamLimitStoreContract("in-memory fake", () => {
  const audit = createMemoryAuditLog();
  return { limits: createMemoryTeamLimitStore(audit), audit };
});
deployApproverStoreContract("in-memory fake", () => {
  const audit = createMemoryAuditLog();
  return { approvers: createMemoryDeployApproverStore(audit), audit };
});
