// Global setup of the workers test projects: one loopback Slack Web API server (test/slack-api-server.ts) for the run,
// its origin provided as `slackApiOrigin` (tests use it through test/slack-loopback.ts); closed when the run ends.
import type { TestProject } from "vitest/node";
import { startSlackApiServer } from "./slack-api-server";

import type {} from "./slack-loopback";

export default async function setup(project: TestProject) {
  const server = await startSlackApiServer();
  project.provide("slackApiOrigin", new URL(server.url).origin);
  return () => server.close();
}
