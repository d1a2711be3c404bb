// Global setup of the node-server test project: one `npm start` server for every file of the project, its URL
// provided as `wardenUrl` (read with sharedServerUrl()); stopped when the run ends. It does not wait for the server:
// global setups run before any test, so waiting here would hold back every project; the files wait instead
// (sharedServerReady), and the server's start-up overlaps the workers tests.
import type { TestProject } from "vitest/node";
import { spawnLocalServer } from "./local-server.ts";

export default async function setup(project: TestProject) {
  const server = await spawnLocalServer({ name: "shared" });
  project.provide("wardenUrl", server.url);
  return () => server.stop();
}
