// Global setup of the workerd test projects: one loopback Slack API server (test/slack-api-server.ts) per project,
// its URL provided as `slackApiUrl`; workerd tests script and read it over HTTP (test/slack-api-remote.ts).
import type { TestProject } from "vitest/node";
import { startSlackApiServer } from "./slack-api-server.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** the Slack Web API base URL (…/api/) of the loopback server this setup started */
    slackApiUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startSlackApiServer();
  project.provide("slackApiUrl", server.url);
  return () => server.close();
}
