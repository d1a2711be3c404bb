// The EVENTS queue's subscribers: per event type, the independent parties that act on it (learning, Slack, audit…).
import type { EventOf, InternalEventType, RefusedWriteEvent } from "../../../contracts/internal-events";
import { applyRunCompletions, applyTaskEvents, type HandlerContext, recordGateEvents } from "../learning";
import { decisionEscalationAudits } from "../policy";
import { enqueueGateCards, enqueueRunFeed, raiseEventAlerts } from "../slack";
import { recordRefusals } from "./audit";
import { acknowledgedResolveDue } from "./escalation-sla";
import { planEscalations } from "./escalations";
import type { ConsumerNeeds } from "./needs";

/**
 * One subscriber: `name` is its half of the delivery key (event_id + name) the consumer keeps for an event that must
 * be retried, so a retry skips the subscribers that already applied it. `apply` gets the batch's events of its types
 * (each parsed once by the consumer) and returns the ids that failed (to retry), or throws to retry every event not
 * reported through `ctx.applied`. Every subscriber is also idempotent by event_id on its own (a crash between its
 * write and the delivery key must not apply it twice).
 */
export type Subscriber<in T extends InternalEventType> = {
  readonly name: string;
  apply(events: EventOf<T>[], deps: ConsumerNeeds, ctx: HandlerContext): Promise<Set<string> | undefined>;
};

type TaskSignal = "task.failed" | "task.blocked" | "task.completed";
type RunFeedType = TaskSignal | "run.completed" | "gate.opened" | "gate.decided";
const done = async (work: Promise<unknown>) => {
  await work;
  return undefined;
};

/** learning: task.* events staged (signatures, YARLI memories) — one batch for the three types. */
const learningTasks: Subscriber<TaskSignal> = {
  name: "learning.tasks",
  apply: (events, deps, ctx) => applyTaskEvents(events, deps, ctx),
};
const learningRuns: Subscriber<"run.completed"> = { name: "learning.runs", apply: applyRunCompletions };
const gateMetrics: Subscriber<"gate.opened" | "gate.decided"> = {
  name: "learning.gate_metrics",
  apply: (events, deps) => recordGateEvents(events, deps),
};
/** the run's Slack feed thread (SLACK_OUTBOX); a redelivered step is not fresh and sends nothing */
const slackFeed: Subscriber<RunFeedType> = {
  name: "slack.feed",
  apply: (events, deps) => done(enqueueRunFeed(events, deps)),
};
/** operator alerts (rollback demotions, budget breaches, dead letters, soft timeouts) */
const slackAlerts: Subscriber<RunFeedType | "policy.rollback"> = {
  name: "slack.alerts",
  apply: (events, deps) => done(raiseEventAlerts(events, deps)),
};
/** the gate's approval card, posted or updated in place */
const gateCards: Subscriber<"gate.opened" | "gate.decided" | "gate.acknowledged"> = {
  name: "slack.gate_cards",
  apply: (events, deps) => done(enqueueGateCards(events, deps)),
};
/** an escalation is an audit row and, unless someone acknowledged the gate before its resolve SLA fell due, a ping */
const escalations: Subscriber<"gate.escalated"> = {
  name: "gates.escalations",
  async apply(events, deps) {
    const byTeam = new Map<string, EventOf<"gate.escalated">[]>();
    for (const e of events) byTeam.set(e.team_id, [...(byTeam.get(e.team_id) ?? []), e]);
    for (const [teamId, teamEvents] of byTeam) {
      const acks = await deps.runIndex.gateAcks(
        teamId,
        teamEvents.map((e) => e.gate_id),
      );
      const { audit, ping } = planEscalations(teamEvents, acks, await acknowledgedResolveDue(deps, teamId, acks));
      await deps.auditLog.append(audit);
      await enqueueGateCards(ping, deps);
    }
    return undefined;
  },
};
/** an audit row per escalate decision (seed 003 §14), its id derived from the decision_id */
const decisionAudit: Subscriber<"policy.decided"> = {
  name: "policy.decision_audit",
  apply: (events, deps) => done(deps.auditLog.append(decisionEscalationAudits(events))),
};
/** refused memory writes: an audit row each, its id derived from the event_id */
const refusalAudit: Subscriber<RefusedWriteEvent["type"]> = {
  name: "events.refusal_audit",
  apply: (events, deps) => done(recordRefusals(events, deps.auditLog)),
};

/**
 * Who hears of each event type. tsc fails until a new type of the union has its entry; the rollback sweep writes its
 * own audit row with the ceiling change, so its event raises the alert only.
 */
export const EVENT_SUBSCRIBERS: { [T in InternalEventType]: readonly Subscriber<T>[] } = {
  "task.failed": [learningTasks, slackFeed, slackAlerts],
  "task.blocked": [learningTasks, slackFeed, slackAlerts],
  "task.completed": [learningTasks, slackFeed, slackAlerts],
  "run.completed": [learningRuns, slackFeed, slackAlerts],
  "gate.opened": [gateCards, gateMetrics, slackFeed, slackAlerts],
  "gate.decided": [gateCards, gateMetrics, slackFeed, slackAlerts],
  "gate.escalated": [escalations],
  // an acknowledgement through the API or CLI updates the card in place (the audit row was written with it)
  "gate.acknowledged": [gateCards],
  // the decision log is not written here: the team object's journal flush writes it, then publishes these events
  "policy.decided": [decisionAudit],
  "policy.rollback": [slackAlerts],
  memory_store_failed: [refusalAudit],
  "task.memory_store_failed": [refusalAudit],
};
