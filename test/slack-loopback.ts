// Inside workerd: the loopback Slack Web API server the workers projects' global setup started (test/slack-api-global.ts):
// its URL for the real Slack client, what it received, and scripted answers (429/500) for the next calls.
import { inject } from "vitest";
import type { RecordedRequest, ScriptedReply } from "./slack-api-server";

declare module "vitest" {
  interface ProvidedContext {
    /** the loopback Slack Web API (`url`, for SLACK_API_BASE_URL) and its control server */
    slackApi: { url: string; control: string };
  }
}

export const loopbackSlackUrl = () => inject("slackApi").url;

/** Every request the loopback Slack server received so far, oldest first. */
export async function loopbackRequests(): Promise<RecordedRequest[]> {
  return (await fetch(`${inject("slackApi").control}/requests`)).json();
}

/** Scripted replies for the next calls to `path` (e.g. "/api/chat.postMessage"), then the default ok. */
export async function scriptLoopback(path: string, ...replies: ScriptedReply[]): Promise<void> {
  await fetch(`${inject("slackApi").control}/script`, { method: "POST", body: JSON.stringify({ path, replies }) });
}
