// What the events feature needs from the composition root: the audit log for refused writes and GET /v1/audit.
import type { AuditLogStore } from "../../ports/audit-log";
import type { PolicyStore } from "../../ports/policy-store";
import type { LearningNeeds } from "../learning";

export type EventsNeeds = { auditLog: AuditLogStore };

/** What the queue consumers need: the learning handlers' needs, the decision log and the audit log. */
export type ConsumerNeeds = EventsNeeds & LearningNeeds & { policyStore: PolicyStore };
