// What the events feature needs from the composition root: the audit log for refused writes and GET /v1/audit.
import type { AuditLogStore } from "../../ports/audit-log";
import type { PolicyStore } from "../../ports/policy-store";
import type { LearningNeeds } from "../learning";
import type { SlackCardNeeds } from "../slack";

export type EventsNeeds = { auditLog: AuditLogStore };

/** What the queue consumers need: the learning handlers' needs, the decision log, the audit log, the Slack outbox. */
export type ConsumerNeeds = EventsNeeds & LearningNeeds & SlackCardNeeds & { policyStore: PolicyStore };
