// Global setup of the node-server test project: one `npm start` server for every file of the project, its URL
// provided as `wardenUrl` (read with sharedServerUrl()); stopped when the run ends.
import type { TestProject } from "vitest/node";
import { startLocalServer } from "./local-server.ts";

export default async function setup(project: TestProject) {
  const server = await startLocalServer({ name: "shared" });
  project.provide("wardenUrl", server.url);
  return () => server.stop();
}
