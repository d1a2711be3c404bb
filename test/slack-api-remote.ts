// The loopback Slack API server seen from a workerd test: its base URL, and scripting/reading it over its control paths.
import { inject } from "vitest";
import type { RecordedRequest, ScriptedReply } from "./slack-api-server";
import "./slack-api-global-setup";

export type RemoteSlackApi = {
  /** the base URL to build the Slack client with (createSlackWebApi) */
  url: string;
  /** replies for `path` (e.g. "/api/chat.postMessage"), used in order before the default ok */
  script(path: string, ...replies: ScriptedReply[]): Promise<void>;
  /** every Slack request so far (headers left out) */
  requests(): Promise<Omit<RecordedRequest, "headers">[]>;
  /** forgets the requests and scripts */
  reset(): Promise<void>;
};

export function remoteSlackApi(): RemoteSlackApi {
  const url = inject("slackApiUrl");
  const control = new URL("/__control/", url).toString();
  const post = async (what: string, body: unknown = {}) => {
    const res = await fetch(control + what, { method: "POST", body: JSON.stringify(body) });
    await res.arrayBuffer();
  };
  return {
    url,
    script: (path, ...replies) => post("script", { path, replies }),
    requests: async () => (await fetch(`${control}requests`)).json(),
    reset: () => post("reset"),
  };
}
