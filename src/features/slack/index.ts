// The Slack feature's public entry: the /slack/* ingress and installation routes, the SLACK_OUTBOX consumer and its
// dead-letter consumer, and the producers the EVENTS consumer calls (gate cards, the run feed, operator alerts).

import { defineFeature } from "../feature";
import { consumeSlackDeadLetters } from "./alerts-enqueue";
import { createEscalationTimingsCache } from "./escalation";
import { outageRoutes } from "./outage-routes";
import { consumeSlackOutbox } from "./outbox";
import { slackRoutes } from "./routes";
import type { SlackStore } from "./store/slack-store-port";

export { ALERT_WINDOW_MS } from "./alerts";
export { consumeSlackDeadLetters, raiseAlerts, raiseEventAlerts } from "./alerts-enqueue";
export { enqueueGateCards, gateCardMessages } from "./cards";
export { createEscalationTimingsCache } from "./escalation";
export { enqueueRunFeed } from "./feed-enqueue";
export type { SlackCardNeeds, SlackFeedNeeds, SlackNeeds } from "./needs";
export { outageRoutes } from "./outage-routes";
export { consumeSlackOutbox, type SlackOutboxNeeds } from "./outbox";
export { slackRoutes } from "./routes";
export { alertGateSlaBreaches } from "./sla-alerts";

/** Slack: the /slack/* ingress, installation and outage routes, the outbox and its dead letters, escalation timings. */
export const slackFeature = defineFeature({
  name: "slack",
  routes: [slackRoutes, outageRoutes],
  queues: {
    "warden-slack-outbox": consumeSlackOutbox,
    "warden-slack-outbox-dlq": consumeSlackDeadLetters,
  },
  build: {
    /** a team's escalation timings, read by the run object next to the gate rules (docs/slack.md, Escalation) */
    escalationTimings: (d: { slackStore: Pick<SlackStore, "byTeam"> }) => createEscalationTimingsCache(d.slackStore),
  },
});
