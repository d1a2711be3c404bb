// The D1 contract against the Node stand-in, and the store contracts of the D1 adapters run over it: the adapters'
// own code, in Node, with the schema of every migration.
import { drizzle } from "drizzle-orm/d1";
import { createD1AuditLog } from "../../src/features/audit/store/audit-log";
import { auditLogContract } from "../../src/features/audit/store/audit-log.contract";
import { createD1DeployApproverStore } from "../../src/features/gates/store/deploy-approvers";
import { deployApproverStoreContract } from "../../src/features/gates/store/deploy-approvers.contract";
import { createD1TeamLimitStore } from "../../src/features/limits/store/team-limits";
import { teamLimitStoreContract } from "../../src/features/limits/store/team-limits.contract";
import { nodeD1 } from "./d1";
import { d1Contract } from "./d1-contract";

d1Contract("Node stand-in", nodeD1);

// one database for the store suites, as in workerd: each of their tests works in a team of its own
const db = drizzle(await nodeD1());
const OVER = "D1 adapter over the Node stand-in";
auditLogContract(OVER, () => createD1AuditLog(db));
teamLimitStoreContract(OVER, () => ({ limits: createD1TeamLimitStore(db), audit: createD1AuditLog(db) }));
deployApproverStoreContract(OVER, () => ({ approvers: createD1DeployApproverStore(db), audit: createD1AuditLog(db) }));
