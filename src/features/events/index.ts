// The events feature's public entry: the EVENTS and dead-letter queue consumers, GET /v1/audit, and its needs.
export { consumeEvents, EVENT_HANDLERS, type EventHandler } from "./consumer";
export { consumeDeadLetters } from "./dead-letters";
export { decisionEscalationAudits, withDecisionEscalationAudit } from "./decision-audit";
export type { EventsNeeds } from "./needs";
export { eventsRoutes } from "./routes";
