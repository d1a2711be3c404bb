// The Slack feature's public entry: the /slack/* ingress and installation routes, the SLACK_OUTBOX consumer, and the
// gate-card producer the EVENTS consumer calls.
export { enqueueGateCards, gateCardMessages } from "./cards";
export type { SlackCardNeeds, SlackNeeds } from "./needs";
export { outageRoutes } from "./outage-routes";
export { consumeSlackOutbox, type SlackOutboxNeeds } from "./outbox";
export { slackRoutes } from "./routes";
