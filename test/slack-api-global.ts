// Global setup of the workers test projects: the loopback Slack Web API server (test/slack-api-server.ts) and a
// control server beside it, so tests inside workerd can point the real Slack client at Slack's stand-in and read what
// it received (test/slack-loopback.ts). Both on 127.0.0.1, stopped when the run ends.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import { startSlackApiServer } from "./slack-api-server";

export default async function setup(project: TestProject) {
  const slack = await startSlackApiServer();
  // GET /requests → every request the Slack stand-in received so far (JSON); POST /script {path, replies} → scripts
  const control = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/script") {
        const { path, replies } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        slack.script(path, ...replies);
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(slack.requests));
    });
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const { port } = control.address() as AddressInfo;
  project.provide("slackApi", { url: slack.url, control: `http://127.0.0.1:${port}` });
  return async () => {
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await slack.close();
  };
}
