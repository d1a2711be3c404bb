// The messages feature's public entry: a run's conversation (talk) over the API, and the use-case the Slack ingress
// calls for a person's reply in a run's thread or DM.
import { defineFeature } from "../feature";
import { messagesRoutes } from "./routes";

export { threadKeys } from "./domain";
export type { MessagesNeeds } from "./needs";
export { messagesRoutes } from "./routes";
export { appendPersonReply } from "./use-cases";

export const messagesFeature = defineFeature({ name: "messages", routes: [messagesRoutes] });
