// What the events feature needs from the composition root: the audit log for refused writes and GET /v1/audit.
import type { AuditLogStore } from "../../ports/audit-log";
import type { EventDeliveries } from "../../ports/event-bus";
import type { GateSlaNeeds } from "../gates";
import type { LearningNeeds } from "../learning";
import type { DecisionLogNeeds } from "../policy";
import type { RunIndex } from "../runs/domain";
import type { SlackFeedNeeds } from "../slack";

export type EventsNeeds = { auditLog: AuditLogStore };

/** What the queue consumers need: the learning handlers' needs, the decision log, the audit log, the Slack outbox and feed store. */
export type ConsumerNeeds = EventsNeeds &
  LearningNeeds &
  SlackFeedNeeds &
  GateSlaNeeds &
  Pick<DecisionLogNeeds, "decisionObjects" | "decisionCounters" | "clock"> & {
    runIndex: Pick<RunIndex, "gateAcks">;
    /** delivery keys (event_id + subscriber) of messages being retried */
    eventDeliveries: EventDeliveries;
  };
