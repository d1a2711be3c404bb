// The Slack feature's public entry: the /slack/* ingress and installation routes, the SLACK_OUTBOX consumer and its
// dead-letter consumer, and the producers the EVENTS consumer calls (gate cards, the run feed, operator alerts).
export { consumeSlackDeadLetters, raiseAlerts, raiseEventAlerts } from "./alerts-enqueue";
export { enqueueGateCards, gateCardMessages } from "./cards";
export { createEscalationTimingsCache } from "./escalation";
export { enqueueRunFeed } from "./feed-enqueue";
export type { SlackCardNeeds, SlackFeedNeeds, SlackNeeds } from "./needs";
export { outageRoutes } from "./outage-routes";
export { consumeSlackOutbox, type SlackOutboxNeeds } from "./outbox";
export { slackRoutes } from "./routes";
export { alertGateSlaBreaches } from "./sla-alerts";
