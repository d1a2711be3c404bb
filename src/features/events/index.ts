// The events feature's public entry: the EVENTS and dead-letter queue consumers, GET /v1/audit, and its needs.
import { defineFeature } from "../feature";
import { consumeEvents } from "./consumer";
import { consumeDeadLetters } from "./dead-letters";
import { eventsRoutes } from "./routes";

export { consumeEvents, EVENT_SUBSCRIBERS, type Subscriber, type SubscriberTable } from "./consumer";
export { consumeDeadLetters } from "./dead-letters";
export type { EventsNeeds } from "./needs";
export { eventsRoutes } from "./routes";

/** Events: GET /v1/audit and the EVENTS queue with its dead letters. */
export const eventsFeature = defineFeature({
  name: "events",
  routes: [eventsRoutes],
  queues: { "warden-events": consumeEvents, "warden-events-dlq": consumeDeadLetters },
});
